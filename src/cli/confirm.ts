import { UsageError } from '../core/errors.js';
import type { Context } from './context.js';

/**
 * Asks before a destructive change unless --yes. Without a terminal (CI, pipes, --no-input)
 * it never prompts: missing --yes is a usage error.
 */
export async function confirm(ctx: Context, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!ctx.io.canPrompt) throw new UsageError(`${question} Pass --yes to confirm.`, `Not asked: ${ctx.io.noPromptReason}.`);
  const { confirm: ask } = await import('@inquirer/prompts');
  const answer = await ask({ message: question, default: false }, { output: process.stderr, signal: ctx.signal });
  if (!answer) throw new UsageError('Cancelled; nothing was changed.');
}
