import { readFileSync } from 'node:fs';
import type { Command as CommandType, CommanderError } from 'commander';
import type { CommandSpec, Manifest } from './define.js';
import { CliError, CommandExit, ExitCode, UsageError, errorFacts } from '../core/errors.js';
import type { Context, GlobalOptions } from './context.js';
import { IO } from './io.js';
import { visible } from '../output/visible.js';
import type { Output } from '../output/result.js';

class Interrupted extends CliError {
  constructor() {
    super('Interrupted', ExitCode.INTERRUPTED, undefined, 'INTERRUPTED');
  }
}

/** Runs one command line and returns its exit code: the only place errors become exit codes. */
export async function main(argv: string[]): Promise<number> {
  const { buildProgram, selectedGroupPath, protectNegativeDurations, withoutHelpForUnknown } = await import('./program.js');
  argv = protectNegativeDurations(argv);
  // --utc: dates typed without an offset, and dates shown, are UTC; Node reads TZ on each use.
  const utc = argv.includes('--utc');
  const zoneGiven = Boolean(process.env.TZ);
  if (utc) process.env.TZ = 'UTC';
  const manifest = startupManifest(argv, selectedGroupPath);
  argv = [...withoutHelpForUnknown(manifest, argv)];
  let ctx: Context | null = null;
  let debug = argv.includes('--debug');

  const onSigint = () => {
    if (!ctx || ctx.signal.aborted) process.exit(ExitCode.INTERRUPTED);
    ctx.abort.abort(new Interrupted());
  };
  process.on('SIGINT', onSigint);

  const program = buildProgram(manifest, async (spec, args, opts, globals) => {
    const g = globals as unknown as GlobalOptions;
    debug = g.debug;
    const conflict = flagConflicts(g);
    // Loaded side by side: each import waits on file reads, which overlap.
    const [{ Context }, { render }, verb] = await Promise.all([import('./context.js'), import('../output/render.js'), importVerb(spec.module)]);
    ctx = new Context(g);
    const renderOptions = { format: g.output, query: g.query, columns: g.columns, headers: g.headers, quiet: g.quiet, localTime: !utc && (zoneGiven || ctx.io.isTTY) };
    // Verbs that print more than once (watch mode) print as the final output would.
    ctx.renderOptions = renderOptions;
    if (conflict) ctx.io.warn(conflict);
    const out = await verb.run(ctx, args, opts).catch(async (err: unknown) => {
      const { DryRunStop } = await import('../core/client.js');
      if (!(err instanceof DryRunStop)) throw err;
      ctx!.io.note('Dry run: this request was not sent.');
      return dryRunOutput(err, g.output);
    });
    await render(out, renderOptions, ctx.io);
    if (out?.failure) throw out.failure;
  }, argv);

  const asJson = errorsAsJson(argv);
  // Commander's help and usage errors (which quote what was typed) go through the output chokepoint
  // too. With -o json|ndjson, usage errors are reported as JSON: keep commander's text off stderr.
  const plainIO = new IO({ color: false, input: false });
  forEachCommand(program, (c) =>
    c.configureOutput({ writeOut: (s) => plainIO.out(s), writeErr: (s) => plainIO.err(s), ...(asJson ? { outputError: () => {} } : {}) }),
  );

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.OK;
  } catch (err) {
    return report(err, (ctx as Context | null)?.io ?? new IO({ color: !argv.includes('--no-color'), input: false }), debug, asJson);
  } finally {
    process.off('SIGINT', onSigint);
    await (ctx as Context | null)?.close();
  }
}

/**
 * A verb's module by its manifest path (`commands/hub/list.js`). The bundled build replaces this
 * body with a table of its modules (scripts/build.mjs), so keep it one line.
 */
async function importVerb(module: string): Promise<CommandSpec> {
  return (await import(new URL(`../${module}`, import.meta.url).href)).default;
}

/**
 * Root flags that contradict each other are refused or said, never silently resolved: -q (ids
 * only) with a data format is refused; --columns where no table is printed is a warning.
 */
function flagConflicts(g: GlobalOptions): string | undefined {
  const data = g.output === 'json' || g.output === 'ndjson' || g.output === 'yaml';
  if (g.quiet && data) throw new UsageError(`-q and -o ${g.output} do not go together`, `-q prints only ids, one per line; -o ${g.output} prints the whole resources. Choose one (ids as JSON: --query "[].id" -o json).`);
  if (g.columns && (data || g.query)) return `--columns shapes tables; ${g.query ? '--query' : `-o ${g.output}`} prints ${g.query ? 'what the expression selects' : 'every field'}, so --columns is ignored${g.query ? '' : ' (pick fields with --query)'}.`;
  return undefined;
}

/** What --dry-run prints instead of sending: the request, as text or (-o json|yaml) as data. */
function dryRunOutput(req: { method: string; url: string; body: unknown }, format: string): Output {
  const body = typeof req.body === 'string' ? tryJson(req.body) : req.body;
  if (format !== 'table' && format !== 'wide') return { kind: 'item', data: { dryRun: true, method: req.method, url: req.url, body: body ?? null }, raw: true };
  const shown = body === undefined ? '' : typeof body === 'string' ? `${body}\n` : `${JSON.stringify(body, null, 2)}\n`;
  return { kind: 'text', text: `${req.method} ${req.url}\n${shown}` };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The part of the command tree this command line needs: the index, and its noun's verbs. */
function startupManifest(argv: string[], selected: (m: Manifest, argv: string[]) => string[]): Manifest {
  const read = (name: string) => JSON.parse(readFileSync(new URL(`./manifest/${name}.json`, import.meta.url), 'utf8'));
  const index = read('_root') as Manifest;
  const noun = selected(index, argv)[0];
  if (noun) index.commands.push(...(read(noun) as Manifest['commands']));
  return index;
}

/** -o json / -o ndjson on the line: errors go to stderr as one JSON object, for scripts to branch on. */
export function errorsAsJson(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (t === '--') break;
    const value = t === '-o' || t === '--output' ? argv[i + 1] : t.startsWith('--output=') ? t.slice(9) : /^-o[a-z]/.test(t) ? t.slice(2) : undefined;
    if (value !== undefined) return value === 'json' || value === 'ndjson';
  }
  return false;
}

function forEachCommand(cmd: CommandType, visit: (c: CommandType) => void): void {
  visit(cmd);
  for (const sub of cmd.commands) forEachCommand(sub, visit);
}

function report(err: unknown, io: IO, debug: boolean, asJson: boolean): number {
  const commanderCode = (err as CommanderError)?.code;
  if (typeof commanderCode === 'string' && commanderCode.startsWith('commander.')) {
    // Commander has already printed its message (with a suggestion for unknown names).
    if (commanderCode === 'commander.helpDisplayed' || commanderCode === 'commander.version') return ExitCode.OK;
    // One code for every usage error; which one commander found is in `reason`.
    if (asJson) printJsonError(io, { message: (err as Error).message.replace(/^error: /, ''), code: 'USAGE', reason: commanderCode.replace('commander.', ''), exitCode: ExitCode.USAGE });
    return ExitCode.USAGE;
  }
  // Ctrl-C at a prompt (@inquirer's ExitPromptError, or AbortPromptError when the run's signal
  // aborted it): the user chose to stop, so no error text, exit 130.
  if (isPromptInterrupt(err)) return ExitCode.INTERRUPTED;
  if (err instanceof CommandExit) return err.exitCode;
  if (err instanceof CliError || (err as Error)?.name === 'AbortError') {
    const e = err instanceof CliError ? err : new Interrupted();
    if (asJson) {
      printJsonError(io, { message: e.message, ...errorFacts(e), exitCode: e.exitCode, hint: e.hint });
      return e.exitCode;
    }
    io.err(`error: ${visible(e.message)}\n`);
    if (e.hint) io.err(`  ${visible(e.hint)}\n`);
    if (debug && e.stack) io.err(`${e.stack}\n`);
    return e.exitCode;
  }
  if (asJson) {
    printJsonError(io, { message: `unexpected failure: ${(err as Error)?.message ?? String(err)}`, code: 'UNEXPECTED', exitCode: ExitCode.FAILURE });
    return ExitCode.FAILURE;
  }
  io.err(`error: unexpected failure: ${visible((err as Error)?.message ?? String(err))}\n`);
  io.err(debug ? `${(err as Error)?.stack ?? ''}\n` : '  Run again with --debug for details, and report it if it persists.\n');
  return ExitCode.FAILURE;
}

function isPromptInterrupt(err: unknown): boolean {
  const name = (err as Error)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError';
}

interface JsonError {
  message: string;
  /** One of ERROR_CODES (src/core/errors.ts), or the service's own code. */
  code: string;
  /** For usage errors: what commander found (unknownOption, missingArgument, ...). */
  reason?: string;
  status?: number;
  exitCode: number;
  hint?: string;
}

function printJsonError(io: IO, error: JsonError): void {
  io.errJson(`${JSON.stringify({ error })}\n`);
}
