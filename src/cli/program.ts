import { createRequire } from 'node:module';
import type { Command as CommandType, Option as OptionType } from 'commander';
import { optionDescription, type Manifest, type ManifestCommand, type OptionSpec } from './define.js';
import { FORMATS } from '../output/formats.js';
import { parseDuration } from '../server/core/clock.js';
import { UsageError } from '../core/errors.js';

// require() skips the export scan Node runs on a CommonJS package imported from ESM (~4 ms of startup).
const { Argument, Command, InvalidArgumentError, Option } = createRequire(import.meta.url)('commander') as typeof import('commander');

export type RunVerb = (spec: ManifestCommand, args: Record<string, unknown>, opts: Record<string, unknown>, globals: Record<string, unknown>) => Promise<void>;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    failure (the service refused or failed; not found, by id or by name; conflict)
  2    usage or invalid input (bad flags, bad files, 400 answers)
  3    partial failure: some items of a bulk operation failed
  4    authentication or permission (401, 403)
  8    still pending when a wait timed out
  130  interrupted (Ctrl-C)

Environment:
  CMS_PROFILE, CMS_API_URL, CMS_AUTH_URL, CMS_DELIVERY_URL, CMS_CLIENT_ID, CMS_CLIENT_SECRET, CMS_HUB
  CMS_CONFIG_DIR, CMS_DATA_DIR, CMS_FORCE_TTY, NO_COLOR
`;

/** Root options that take a value: their value is not a command word. */
const ROOT_VALUE_OPTIONS = new Set(['--profile', '--hub', '-o', '--output', '--query', '--columns']);

/**
 * The group path the command line names (`cms repo features add` -> ['repo', 'features']).
 * Only that branch of the tree is built: siblings at each level for help and suggestions, and
 * the verbs of the named group in full.
 */
export function selectedGroupPath(manifest: Manifest, argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (ROOT_VALUE_OPTIONS.has(token)) i++;
      continue;
    }
    words.push(token);
  }
  const path: string[] = [];
  for (const word of words) {
    const group = manifest.groups.find(
      (g) => g.path.length === path.length + 1 && g.path.slice(0, -1).join(' ') === path.join(' ') && (g.path[path.length] === word || g.aliases?.includes(word)),
    );
    if (!group) break;
    path.push(group.path[path.length]!);
  }
  return path;
}

/**
 * The command line asks for help (-h, --help) about a word that names no command where one is
 * expected (`cms nosuchnoun --help`, `cms hub craete --help`): commander would print the parent's
 * help and exit 0. The help flags are dropped so the word is reported as an unknown command
 * (exit 2, with commander's suggestion), as gh does.
 */
export function withoutHelpForUnknown(manifest: Manifest, argv: readonly string[]): readonly string[] {
  const help = (t: string) => t === '-h' || t === '--help';
  const end = argv.indexOf('--');
  const head = end === -1 ? argv : argv.slice(0, end);
  if (!head.some(help)) return argv;
  const path = selectedGroupPath(manifest, argv);
  const words: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const token = head[i]!;
    if (token.startsWith('-')) {
      if (ROOT_VALUE_OPTIONS.has(token)) i++;
      continue;
    }
    words.push(token);
  }
  const next = words[path.length];
  if (next === undefined || (!path.length && next === 'help')) return argv;
  const prefix = path.join(' ');
  const under = (p: string[]) => p.length === path.length + 1 && p.slice(0, -1).join(' ') === prefix;
  const known = [
    ...manifest.groups.filter((g) => under(g.path)).flatMap((g) => [g.path[path.length]!, ...(g.aliases ?? [])]),
    ...manifest.commands.filter((c) => under(c.path)).flatMap((c) => [c.path[path.length]!, ...(c.aliases ?? [])]),
    ...Object.keys(OTHER_WORDS).map((w) => w.split(' ')).filter(under).map((p) => p[path.length]!),
  ];
  // A group's verbs are only in the manifest when the group is selected: a word after a verb is its argument.
  if (!known.length || known.includes(next)) return argv;
  return [...head.filter((t) => !help(t)), ...(end === -1 ? [] : argv.slice(end))];
}

/** Builds the commander tree from the manifest; each verb's module loads only when it runs. */
export function buildProgram(manifest: Manifest, run: RunVerb, argv: readonly string[] = []): CommandType {
  const selected = selectedGroupPath(manifest, argv);
  const isOpen = (parentPath: string[]) => parentPath.length <= selected.length && parentPath.every((p, i) => p === selected[i]);
  const program = new Command('cms')
    .description('Content operations for the hosted content management service, with an embedded sandbox of the whole service.')
    .option('--profile <name>', 'use a saved profile (see cms profile list)')
    .option('--hub <id|name>', 'hub to work in (default: CMS_HUB, the profile hub, or the only hub)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(FORMATS).default('table'))
    .option('--query <jmespath>', 'filter and reshape the output with a JMESPath expression')
    .option('--columns <names>', 'table columns to show, e.g. id,label,status (a header or a dotted field path)')
    .option('--no-headers', 'tables without their header row')
    .option('-q, --quiet', 'print only ids, one per line (for xargs)')
    .option('--utc', 'show and read dates in UTC (default: local time on a terminal or when TZ is set; JSON is always UTC)')
    .option('--dry-run', 'print the request a create, update or delete would send (method, URL, body), and send nothing')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--no-input', 'never prompt; missing values are a usage error')
    .option('-y, --yes', 'do not ask for confirmation (destructive changes, writes with a protected profile)')
    .option('--debug', 'print requests and responses on stderr (secrets redacted)')
    .helpOption('-h, --help', 'show help')
    .addHelpText('after', EXIT_CODES_HELP)
    .showSuggestionAfterError(true)
    .exitOverride();
  program.configureHelp({ sortSubcommands: false });
  // The root answers --version only when no noun is named: commander would take a verb's own
  // --version (cms item update --version 3) for the root's.
  if (!selected.length) program.version(manifest.version, '-V, --version', 'print the version');

  const byPath = new Map<string, CommandType>([['', program]]);
  const groupFor = (path: string[]): CommandType => {
    const key = path.join(' ');
    let cmd = byPath.get(key);
    if (cmd) return cmd;
    const parent = groupFor(path.slice(0, -1));
    const meta = manifest.groups.find((g) => g.path.join(' ') === key);
    cmd = parent.command(path[path.length - 1]!).summary(meta?.summary ?? '').description(meta?.summary ?? '');
    for (const alias of meta?.aliases ?? []) cmd.alias(alias);
    cmd.exitOverride().showSuggestionAfterError(true);
    byPath.set(key, cmd);
    return cmd;
  };
  for (const g of manifest.groups) if (isOpen(g.path.slice(0, -1))) groupFor(g.path);

  for (const spec of manifest.commands) {
    if (!isOpen(spec.path.slice(0, -1))) continue;
    const parent = groupFor(spec.path.slice(0, -1));
    const cmd = parent.command(spec.path[spec.path.length - 1]!, { hidden: spec.hidden }).summary(spec.summary).description(spec.description ?? spec.summary);
    for (const alias of spec.aliases ?? []) cmd.alias(alias);
    for (const a of spec.args ?? []) {
      const name = `${a.name}${a.variadic ? '...' : ''}`;
      const argument = new Argument(a.required ? `<${name}>` : `[${name}]`, a.description);
      if (a.choices) argument.choices(a.choices).argParser(choiceParser(a.choices, false));
      cmd.addArgument(argument);
    }
    for (const o of spec.options ?? []) cmd.addOption(toOption(o));
    if (spec.examples.length) cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
    cmd.exitOverride().showSuggestionAfterError(true);
    cmd.action(async (...received: unknown[]) => {
      const command = received[received.length - 1] as CommandType;
      const args: Record<string, unknown> = {};
      (spec.args ?? []).forEach((a, i) => (args[a.name] = received[i]));
      // --hub is a root option, so every verb accepts it (scripts pass it everywhere); the root
      // takes it wherever it is typed, and hands it to verbs that have a --hub of their own.
      const globals = command.optsWithGlobals();
      const opts = command.opts();
      if (globals.hub !== undefined && (spec.options ?? []).some((o) => o.flags.startsWith('--hub '))) opts.hub = globals.hub;
      // Likewise --dry-run: verbs with their own (bulk runs) plan as before; for the others the
      // client stops at the first write and prints it.
      if (globals.dryRun && (spec.options ?? []).some((o) => o.flags === '--dry-run')) {
        opts.dryRun = true;
        globals.dryRun = false;
      }
      // And --yes: a verb's own confirmation and a protected profile's take the same flag.
      if (globals.yes && (spec.options ?? []).some((o) => o.flags === '-y, --yes')) opts.yes = true;
      checkOptions(spec, opts);
      await run(spec, args, opts, globals);
    });
  }
  for (const [words, instead] of Object.entries(OTHER_WORDS)) {
    const path = words.split(' ');
    if (!isOpen(path.slice(0, -1)) || !byPath.has(path.slice(0, -1).join(' '))) continue;
    groupFor(path.slice(0, -1))
      .command(path[path.length - 1]!, { hidden: true })
      .argument('[rest...]')
      .allowUnknownOption()
      .allowExcessArguments()
      .helpOption(false)
      .exitOverride()
      .action(() => {
        throw new UsageError(`There is no \`cms ${words}\``, `Did you mean \`cms ${path.slice(0, -1).join(' ')} ${instead}\`? See: cms ${path.slice(0, -1).join(' ')} ${instead} --help`);
      });
  }
  return program;
}

/** Words users reach for that the service calls otherwise: the command line names the right verb. */
const OTHER_WORDS: Record<string, string> = {
  'type create': 'register',
};

/** An option's attribute name in commander's opts() (`--dry-run` -> dryRun). */
const attribute = (o: OptionSpec): string => new Option(o.flags).attributeName();

/**
 * Old names give their value to the new one, and required options are checked: both before
 * the verb runs, so a missing flag never costs a request (exit 2, naming it).
 */
function checkOptions(spec: ManifestCommand, opts: Record<string, unknown>): void {
  const options = spec.options ?? [];
  for (const o of options) {
    if (!o.aliasOf) continue;
    const key = attribute(o);
    if (opts[key] === undefined) continue;
    const target = options.find((t) => attribute(t) === o.aliasOf);
    if (opts[o.aliasOf] !== undefined && opts[o.aliasOf] !== opts[key]) throw new UsageError(`${longFlag(o)} is another name for ${target ? longFlag(target) : o.aliasOf}: give one of them`);
    opts[o.aliasOf] = opts[key];
    delete opts[key];
  }
  const missing = options.filter((o) => o.required && !o.inBody && isEmpty(opts[attribute(o)]) && !(o.requiredUnless && !isEmpty(opts[o.requiredUnless])));
  if (missing.length) {
    const unless = (o: OptionSpec) => {
      const other = o.requiredUnless && options.find((t) => attribute(t) === o.requiredUnless);
      return other ? ` (or ${longFlag(other)})` : '';
    };
    throw new UsageError(`Missing required option${missing.length > 1 ? 's' : ''}: ${missing.map((o) => `${o.flags.replace(/^-\w, /, '')}${unless(o)}`).join(', ')}`, `See: cms ${spec.path.join(' ')} --help`);
  }
}

const isEmpty = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.length === 0);
const longFlag = (o: OptionSpec): string => /--[\w-]+/.exec(o.flags)?.[0] ?? o.flags;

/** Any case of a choice is that choice (`--type staging` is STAGING); anything else is refused. */
function choiceParser(choices: readonly string[], repeatable: boolean) {
  return (value: string, previous: unknown) => {
    const typed = value.toLowerCase();
    // The singular of a plural choice is that choice too (`admin members hub` for hubs).
    const hit = choices.find((c) => c === value) ?? choices.find((c) => c.toLowerCase() === typed) ?? choices.find((c) => [`${typed}s`, typed.replace(/y$/, 'ies')].includes(c.toLowerCase()));
    if (hit === undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return repeatable ? [...((previous as string[] | undefined) ?? []), hit] : hit;
  };
}

function toOption(o: OptionSpec): OptionType {
  const opt = new Option(o.flags, optionDescription(o));
  if (o.hidden || o.aliasOf) opt.hideHelp();
  if (o.choices) opt.choices(o.choices).argParser(choiceParser(o.choices, Boolean(o.repeatable)));
  else if (o.upperCase) opt.argParser((value: string, previous: unknown) => (o.repeatable ? [...((previous as string[] | undefined) ?? []), value.toUpperCase()] : value.toUpperCase()) as never);
  else if (o.repeatable) opt.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  if (o.integer) {
    opt.argParser((value: string) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`needs a whole number of 0 or more, got '${value}'`);
      return Number(value);
    });
  }
  if (o.duration) {
    opt.argParser((value: string) => {
      const ms = durationMs(value);
      if (ms === null) throw new InvalidArgumentError(`needs a duration such as 30s, 2m, 1h30m or plain seconds, got '${value}'`);
      return ms;
    });
    // Commander does not parse defaults: give the milliseconds, show the words.
    if (typeof o.default === 'string') {
      opt.default(durationMs(o.default), o.default);
      return opt;
    }
  }
  if (o.default !== undefined) opt.default(o.default);
  return opt;
}

/** A duration flag's value in milliseconds: the clock's units (ms, s, m, h, d, w, combined) or plain seconds. */
export function durationMs(value: string): number | null {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const ms = parseDuration(text);
  return ms === null || ms < 0 ? null : Math.round(ms);
}

/**
 * `cms sandbox clock advance -26h`: a negative duration is an argument, not an option (no flag
 * starts with a digit). It is written with U+2212 MINUS SIGN so commander passes it through;
 * the clock verbs read either minus.
 */
export function protectNegativeDurations(argv: readonly string[]): string[] {
  const out: string[] = [];
  let rest = false;
  for (const token of argv) {
    if (token === '--') rest = true;
    out.push(!rest && /^-\d+(\.\d+)?(ms|s|m|h|d|w)/.test(token) ? `\u2212${token.slice(1)}` : token);
  }
  return out;
}
