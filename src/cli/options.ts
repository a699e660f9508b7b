import type { OptionSpec } from './define.js';

// Flags shared by many verbs: one definition each.

export const hubOption: OptionSpec = { flags: '--hub <id|name>', description: 'hub to work in (default: CMS_HUB, the profile hub, or the only hub)', complete: 'hubs' };
export const limitOption: OptionSpec = { flags: '--limit <n>', description: 'stop after n results (0 for all)', integer: true, default: 100 };
export const allOption: OptionSpec = { flags: '--all', description: 'every result (same as --limit 0)' };
export const bodyFileOption: OptionSpec = { flags: '--body-file <file>', description: 'JSON request body from a file (- for stdin); flags override its fields' };
export const setOption: OptionSpec = { flags: '--set <path=value>', description: 'set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)', repeatable: true };
export const setStringOption: OptionSpec = { flags: '--set-string <path=value>', description: 'like --set, but the value is always text (--set-string body.code=007)', repeatable: true };
export const yesOption: OptionSpec = { flags: '-y, --yes', description: 'do not ask for confirmation' };
export const repoOption: OptionSpec = { flags: '--repo <id|name>', description: 'content repository', complete: 'repositories' };

/** 0 or --all means "no limit". */
export const limitOf = (opts: { limit?: number; all?: boolean }): number | undefined => (opts.all || !opts.limit ? undefined : opts.limit);
