import { readFileSync } from 'node:fs';
import type { CommanderError } from 'commander';
import type { Manifest } from './define.js';
import { CliError, ExitCode } from '../core/errors.js';
import type { Context, GlobalOptions } from './context.js';
import { IO } from './io.js';

class Interrupted extends CliError {
  constructor() {
    super('Interrupted', ExitCode.INTERRUPTED);
  }
}

/** Runs one command line and returns its exit code: the only place errors become exit codes. */
export async function main(argv: string[]): Promise<number> {
  const { buildProgram, selectedGroupPath } = await import('./program.js');
  const manifest = startupManifest(argv, selectedGroupPath);
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
    const { Context } = await import('./context.js');
    ctx = new Context(g);
    const { render } = await import('../output/render.js');
    // `file.js#name`: the bundled build's entry of a noun, whose export `name` loads the verb.
    const [file, name] = spec.module.split('#') as [string, string?];
    const mod = await import(new URL(`../${file}`, import.meta.url).href);
    const verb = (name ? await mod[name]() : mod).default;
    const out = await verb.run(ctx, args, opts);
    await render(out, { format: g.output, query: g.query }, ctx.io);
    if (out?.failure) throw out.failure;
  }, argv);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.OK;
  } catch (err) {
    return report(err, (ctx as Context | null)?.io ?? new IO({ color: !argv.includes('--no-color'), input: false }), debug);
  } finally {
    process.off('SIGINT', onSigint);
    await (ctx as Context | null)?.close();
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

function report(err: unknown, io: IO, debug: boolean): number {
  const commanderCode = (err as CommanderError)?.code;
  if (typeof commanderCode === 'string' && commanderCode.startsWith('commander.')) {
    // Commander has already printed its message (with a suggestion for unknown names).
    if (commanderCode === 'commander.helpDisplayed' || commanderCode === 'commander.version') return ExitCode.OK;
    return ExitCode.USAGE;
  }
  if (err instanceof CliError || (err as Error)?.name === 'AbortError') {
    const e = err instanceof CliError ? err : new Interrupted();
    io.err(`error: ${e.message}\n`);
    if (e.hint) io.err(`  ${e.hint}\n`);
    if (debug && e.stack) io.err(`${e.stack}\n`);
    return e.exitCode;
  }
  io.err(`error: unexpected failure: ${(err as Error)?.message ?? String(err)}\n`);
  io.err(debug ? `${(err as Error)?.stack ?? ''}\n` : '  Run again with --debug for details, and report it if it persists.\n');
  return ExitCode.FAILURE;
}
