import type { Context } from '../../../cli/context.js';
import { item, type Output } from '../../../output/result.js';

/** Posts a clock change to the sandbox the profile points at (embedded or served) and shows the clock. */
export async function changeClock(ctx: Context, change: Record<string, unknown>): Promise<Output> {
  const client = await ctx.client();
  return item(await client.post('/__sandbox/clock', change));
}
