import { join } from 'node:path';
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/client.js';
import { CliError } from '../../core/errors.js';

/**
 * The client of the embedded sandbox, for the commands that must work when its database is
 * damaged (sandbox reset, sandbox status): the broken file is moved aside (kept, renamed) and
 * said where, and the sandbox opens empty. Every other command only names the file.
 */
export async function clientRecovering(ctx: Context): Promise<ApiClient> {
  try {
    return await ctx.client();
  } catch (err) {
    if (!(err instanceof CliError) || err.errorCode !== 'SANDBOX_DAMAGED' || !ctx.connection().embedded) throw err;
    const { moveDamagedAside } = await import('../../server/core/db.js');
    const moved = moveDamagedAside(join(ctx.connection().dataDir, 'sandbox.db'));
    ctx.io.warn(`${err.message}: moved aside to ${moved}; the sandbox starts empty.`);
    ctx.forgetClient();
    return ctx.client();
  }
}
