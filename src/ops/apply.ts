import { resolve } from 'node:path';
import type { Context } from '../cli/context.js';
import type { OptionSpec } from '../cli/define.js';
import type { ApiClient } from '../core/client.js';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { failing, text, type Output } from '../output/result.js';
import { BulkRun, type RunFlags } from './runs/bulk-run.js';
import { MemoryMapping } from './files/mapping.js';
import { applySchemas, applyTypes, fileOfStep, readSchemaFiles, readTypeFiles, type ApplyKind, type SchemaFile, type TypeFile } from './model-files.js';
import { Syncer, type SyncedStep } from './runs/reconcile.js';
import { countActions, countLine, failureLines, stepLines, tsv } from './runs/run-report.js';
import { reportToGitHub } from './runs/github-actions.js';

// `cms schema apply <dir>` and `cms type apply <dir>`: the content model kept as files (in git)
// and applied declaratively. Every *.json file under <dir> (recursively, dot files skipped) is one
// resource:
//
//   schema file: the JSON Schema document itself (its `id` is the schema id; validation level
//                CONTENT_TYPE), or {schemaId, validationLevel?, status?, body} where body is the
//                document (an object or its text) and validationLevel CONTENT_TYPE|SLOT|PARTIAL
//   type file:   {contentTypeUri, settings: {label, icons?, visualizations?, cards?}, status?,
//                repositories?: [repository names]}; without `repositories` assignments are left
//                as they are, with it the type is assigned to exactly those repositories
//
// Each file's resource is created, updated (the differences shown) or left unchanged; --prune
// archives what the hub has and the files do not. `cms item export` writes types/ and schemas/
// directories in these formats. Reading and applying the files is model-files.ts.


export const applyOptions: OptionSpec[] = [
  { flags: '--prune', description: 'archive what the hub has (active) and the files do not' },
  { flags: '--exit-code', description: 'exit 1 when the hub differed from the files (0 when in sync); with --dry-run a drift check' },
];

export interface ApplyFlags extends RunFlags {
  hub?: string;
  prune?: boolean;
  exitCode?: boolean;
}

/** What defines an apply run: saved in its journal, reused by --resume. */
interface ApplyOptions {
  dir: string;
  hubId: string;
  prune: boolean;
}

/** The whole of `cms schema apply` / `cms type apply` (new or resumed): plan, apply, summary. */
export async function runApply(ctx: Context, kind: ApplyKind, dir: string | undefined, flags: ApplyFlags): Promise<Output> {
  const client = await ctx.client();
  const options = (BulkRun.resumedOptions(ctx, flags.resume, `${kind} apply`, { dir }) as ApplyOptions | undefined) ?? (await newOptions(ctx, client, kind, dir, flags));
  const files = kind === 'schema' ? readSchemaFiles(options.dir) : readTypeFiles(options.dir);
  const connection = ctx.connection();
  const run = await BulkRun.begin(ctx, flags, { command: `${kind} apply`, options: { ...options }, target: { apiUrl: connection.apiUrl, profile: connection.profile, hubId: options.hubId } });
  // The summary counts the steps (created, updated, ...): the run's own counts would say it twice.
  run.countsInSummary = false;
  if (run.dryRun) client.readOnly = true;
  run.fileOfKey = fileOfStep(kind, options.dir, files);
  const sync = new Syncer(run, new MemoryMapping(), ctx.signal);
  const work = kind === 'schema' ? () => applySchemas(sync, client, options, files as SchemaFile[]) : () => applyTypes(sync, client, options, files as TypeFile[]);
  const out = await run.execute(async () => {
    await work();
    return applySummary(sync);
  });
  return withDriftCheck(ctx, run, sync, kind, options, out, flags.exitCode);
}

async function newOptions(ctx: Context, client: ApiClient, kind: ApplyKind, dir: string | undefined, flags: ApplyFlags): Promise<ApplyOptions> {
  if (!dir) throw new UsageError(`Name the directory of ${kind} files: cms ${kind} apply <dir>`, 'Or continue an interrupted run with --resume <run-id> (see cms runs).');
  return { dir: resolve(dir), hubId: await ctx.hubId(flags.hub, client), prune: Boolean(flags.prune) };
}

// ---- the summary ----

/** Steps that bring the hub to the files: everything but `unchanged`. */
const changesOf = (steps: readonly SyncedStep[]) => steps.filter((s) => s.action !== 'unchanged');

function applySummary(sync: Syncer): Record<string, unknown> {
  const counts = countActions(sync.steps);
  return {
    created: counts.create ?? 0,
    updated: counts.update ?? 0,
    unchanged: counts.unchanged ?? 0,
    archived: counts.archive ?? 0,
    drift: changesOf(sync.steps).length > 0,
    steps: sync.steps.map(({ action, resource, label, targetId, changes, resumed }) => ({ action, resource, label, targetId, ...(changes ? { changes } : {}), ...(resumed ? { resumed } : {}) })),
  };
}

/** The summary as text (table output), and with --exit-code exit 1 when the hub differed from the files. */
function withDriftCheck(ctx: Context, run: BulkRun, sync: Syncer, kind: ApplyKind, options: ApplyOptions, out: Output, exitCode?: boolean): Output {
  const drift = changesOf(sync.steps).length;
  let result = out;
  if (out.kind === 'text') result = { ...text(ctx.io.isTTY ? renderApply(run, sync, kind, options) : pipedApply(sync)), failure: out.failure };
  if (!exitCode || !drift || result.failure) return result;
  const message = `The hub differs from ${options.dir}: ${drift} change(s) ${run.dryRun ? 'to apply' : 'applied'}`;
  reportToGitHub(
    ctx.io,
    ctx.env,
    `cms ${kind} apply: the hub differs from the files (${drift} change(s))`,
    changesOf(sync.steps).map((s) => ({
      file: run.fileOfKey?.(s.key),
      title: `${kind} drift: ${s.action} ${s.resource}`,
      message: `${s.label}: ${run.dryRun ? 'would be' : 'was'} ${PAST[s.action] ?? s.action}${s.changes?.length ? `\n${s.changes.slice(0, 20).join('\n')}` : ''}`,
    })),
  );
  return failing(result, new CliError(message, ExitCode.FAILURE, undefined, 'DRIFT'));
}

const PAST: Record<string, string> = { create: 'created', update: 'updated', archive: 'archived' };

/** Piped: a row per step (action, resource, label, its differences joined by '; '), no header, like every piped table. */
function pipedApply(sync: Syncer): string {
  return tsv(sync.steps.map((s) => [s.action, s.resource, s.resumed ? `${s.label} (done before the resume)` : s.label, (s.changes ?? []).join('; ')]));
}

function renderApply(run: BulkRun, sync: Syncer, kind: ApplyKind, options: ApplyOptions): string {
  const head = run.dryRun ? `Dry run of cms ${kind} apply ${options.dir}: nothing was changed.` : `Run ${run.id} (cms ${kind} apply ${options.dir}): ${run.journal?.meta.status ?? 'completed'}`;
  const rows = sync.steps.map((s) => ({ ...s, label: s.resumed ? `${s.label} (done before the resume)` : s.label }));
  const lines = [head, '', ...stepLines(rows), '', `${run.dryRun ? 'Plan' : 'Result'}: ${countLine(countActions(sync.steps))}${run.failures.length ? `, ${run.failures.length} failed` : ''}`];
  for (const line of failureLines(run.failures)) lines.push(line);
  return `${lines.join('\n')}\n`;
}
