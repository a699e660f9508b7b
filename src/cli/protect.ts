import { UsageError } from '../core/errors.js';
import { visible } from '../output/visible.js';
import type { IO } from './io.js';

/** What the guard of a protected profile needs; no Context, so no import cycle with it. */
export interface GuardDeps {
  profile: string;
  io: IO;
  signal: AbortSignal;
  /** The root --yes: write without asking. */
  yes: boolean;
  /** The name of the hub the command works in, or null when there is no single one. */
  hubName: () => Promise<string | null>;
}

/**
 * The ApiClient's beforeWrite for a protected profile (the guard users build around the vendor's
 * CLI for production hubs): on a terminal, type the hub's name (the profile's name when no hub
 * is chosen) before the first write; without a terminal, refused unless --yes. Asked once per
 * command: a bulk run's concurrent writes wait on the same answer.
 */
export function protectedGuard(deps: GuardDeps): (method: string, url: string) => Promise<void> {
  let answer: Promise<void> | null = null;
  return (method) => {
    if (deps.yes) return Promise.resolve();
    answer ??= ask(deps, method);
    return answer;
  };
}

async function ask(deps: GuardDeps, method: string): Promise<void> {
  if (!deps.io.canPrompt) {
    throw new UsageError(
      `Profile '${deps.profile}' is protected: a write (${method}) needs confirmation, and cms cannot ask here (${deps.io.noPromptReason})`,
      'Pass --yes to write anyway, or use another profile (`cms profile unprotect` removes the protection).',
    );
  }
  const hub = await deps.hubName().catch(() => null);
  const expected = hub ?? deps.profile;
  const what = hub ? `the hub's name (${hub})` : `the profile's name (${deps.profile})`;
  const { input } = await import('@inquirer/prompts');
  const typed = await input({ message: visible(`Profile '${deps.profile}' is protected. Type ${what} to ${method === 'DELETE' ? 'delete' : 'write'}:`) }, { output: deps.io.promptStream(), signal: deps.signal });
  if (typed.trim() !== expected) throw new UsageError(`Cancelled: '${visible(typed.trim().slice(0, 64))}' is not ${hub ? "the hub's" : "the profile's"} name; nothing was changed.`);
}
