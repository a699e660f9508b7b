import type { Context } from './context.js';
import type { Output } from '../output/result.js';

// One verb per file: its arguments, options, help and run(). The build writes every verb's
// metadata into dist/cli/manifest.json, so `cms --help` never imports a verb module.

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  choices?: readonly string[];
  /** What shell completion offers (default: by the argument's name, e.g. hub -> hubs). */
  complete?: string;
}

export interface OptionSpec {
  /** Commander flags, e.g. `--hub <id>`, `-o, --output <format>`, `--[no-]wait`. */
  flags: string;
  description: string;
  default?: string | number | boolean | string[];
  choices?: readonly string[];
  /** Collect repeated values into an array (`--set a=1 --set b=2`). */
  repeatable?: boolean;
  /** Parse the value as an integer >= 0. */
  integer?: boolean;
  /** Parse the value as a duration (30s, 2m, 1h30m, or plain seconds) into milliseconds. */
  duration?: boolean;
  hidden?: boolean;
  /** What shell completion offers for the value: hubs, repositories, editions, ... */
  complete?: string;
  /** Marked in help and checked before the verb runs (before any request), exit 2 when missing. */
  required?: boolean;
  /**
   * With `required`: the flag fills the request body's field of its name, which --body-file or
   * --set may give instead; the verb's buildBody checks the built body (still before any request).
   */
  inBody?: boolean;
  /** With `required`: another option (its attribute name) that stands in for this one. */
  requiredUnless?: string;
  /** An old name of another option (its attribute name): its value goes there; hide this one. */
  aliasOf?: string;
  /** The service spells the values upper case: any case is accepted, sent upper case. */
  upperCase?: boolean;
}

export interface CommandSpec<O = Record<string, any>> {
  /** The command word, when it cannot be the file name (e.g. __complete). */
  name?: string;
  /** One line for lists of commands. */
  summary: string;
  /** Longer text for the command's own help (defaults to the summary). */
  description?: string;
  /** Shown under "Examples" in help and in docs/commands.md; at least one per verb. */
  examples: string[];
  args?: ArgSpec[];
  options?: OptionSpec[];
  aliases?: string[];
  hidden?: boolean;
  run(ctx: Context, args: Record<string, any>, opts: O): Promise<Output | void>;
}

/** The help text of an option: its description, marked when it is required. */
export function optionDescription(o: OptionSpec): string {
  return o.required ? `${o.description} (required${o.requiredUnless ? ` unless --${o.requiredUnless.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : ''})` : o.description;
}

export function defineCommand<O = Record<string, any>>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** Metadata of one verb as stored in the manifest. */
export interface ManifestCommand extends Omit<CommandSpec, 'run'> {
  path: string[];
  /** Module to import when the verb runs, relative to dist/ (or to the bundle); `file.js#name` names one export of it. */
  module: string;
}

export interface ManifestGroup {
  path: string[];
  summary: string;
  aliases?: string[];
}

export interface Manifest {
  version: string;
  groups: ManifestGroup[];
  commands: ManifestCommand[];
}
