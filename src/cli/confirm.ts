import { UsageError } from '../core/errors.js';
import type { Context } from './context.js';
import { visible } from '../output/visible.js';

/**
 * Asks before a destructive change unless --yes. Without a terminal (CI, pipes, --no-input)
 * it never prompts: missing --yes is a usage error.
 */
export async function confirm(ctx: Context, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!ctx.io.canPrompt) throw new UsageError(`${question} Pass --yes to confirm.`, `Not asked: ${ctx.io.noPromptReason}.`);
  const { confirm: ask } = await import('@inquirer/prompts');
  // The prompt draws on the stream itself: names in the question are escaped first.
  const answer = await ask({ message: visible(question), default: false }, { output: ctx.io.promptStream(), signal: ctx.signal });
  if (!answer) throw new UsageError('Cancelled; nothing was changed.');
}
