import { join, resolve } from 'node:path';
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/client.js';
import { CliError, ExitCode, PartialFailure, UsageError } from '../../core/errors.js';
import { failing, item, text, type Output } from '../../output/result.js';
import { MemoryMapping } from '../files/mapping.js';
import { applySchemas, applyTypes, readSchemaFiles, readTypeFiles } from '../model-files.js';
import { BulkRun, type RunFlags } from '../runs/bulk-run.js';
import { createProgress } from '../runs/progress.js';
import { Syncer } from '../runs/reconcile.js';
import { clientProbe } from '../runs/resolve.js';
import type { MigrationItem } from './api.js';
import { LiveMigration } from './live.js';
import { MigrationHost } from './load.js';
import { OfflineMigration, defaultOut } from './offline.js';
import { readRecord, writeRecord } from './record.js';
import { Reporter, summaryText } from './report.js';
import { BodyValidator } from './validate.js';

// `cms migration run <file>`: the whole run, live on a hub (dry run by default, --apply through
// the bulk engine) or offline on an export (--from). The verb file holds only its flags and help.

export interface MigrationFlags extends RunFlags {
  hub?: string;
  apply?: boolean;
  from?: string;
  out?: string;
  force?: boolean;
  publish?: boolean;
  ignoreSchemaValidation?: boolean;
  itemTimeout?: number;
  exitCode?: boolean;
  concurrency?: number;
}

/** What defines a migration run: saved in its journal, reused by --resume. */
interface RunOptions {
  file: string;
  hubId: string;
  name: string;
  hash: string;
  publish: boolean;
  ignoreSchemaValidation: boolean;
  itemTimeoutMs: number;
  concurrency?: number;
}

export const COMMAND = 'migration run';
const DEFAULT_ITEM_TIMEOUT_MS = 10_000;

function outputMode(ctx: Context): 'terminal' | 'rows' | 'json' {
  const o = ctx.globals.output;
  if ((o !== 'table' && o !== 'wide') || ctx.globals.query) return 'json';
  return ctx.io.isTTY ? 'terminal' : 'rows';
}

export async function runMigration(ctx: Context, file: string | undefined, flags: MigrationFlags): Promise<Output> {
  if (flags.itemTimeout !== undefined && flags.itemTimeout < 1) throw new UsageError('--item-timeout must be more than 0');
  if (flags.from) return runOffline(ctx, file, flags);
  if (flags.out) throw new UsageError('--out goes with --from <export dir>: a run on a hub writes to the hub');
  if (flags.resume && !flags.apply) flags.apply = true;
  if (flags.exitCode && flags.apply) throw new UsageError('--exit-code goes with a dry run (without --apply): it says whether the migration would still change something');
  const client = await ctx.client();
  const resumed = BulkRun.resumedOptions(ctx, flags.resume, COMMAND) as RunOptions | undefined;
  if (!resumed && !file) throw new UsageError('Name the migration file: cms migration run <file>', 'Or continue an interrupted run with --apply --resume <run-id> (see cms runs).');
  if (resumed && file && resolve(file) !== resumed.file) throw new UsageError(`--resume ${flags.resume} continues the run of ${resumed.file}, not ${file}`);
  const hubId = resumed?.hubId ?? (await ctx.hubId(flags.hub, client));
  let live: LiveMigration | undefined;
  const getItem = (id: string): Promise<MigrationItem | undefined> => live!.getItem(id);
  const host = await MigrationHost.load(resumed?.file ?? file!, { timeoutMs: resumed?.itemTimeoutMs ?? flags.itemTimeout ?? DEFAULT_ITEM_TIMEOUT_MS, getItem });
  try {
    const f = host.file;
    const notes: string[] = [];
    if (resumed && resumed.hash !== f.hash && !flags.force) throw new UsageError(`${f.path} changed since run ${flags.resume} started: resuming would mix two versions of the migration`, 'Undo the run (cms undo) and start again, or resume anyway with --force.');
    if (!resumed) {
      const { applied } = await readRecord(client, hubId);
      const before = applied.find((a) => a.name === f.name && a.status !== 'undone');
      if (before) {
        const changedNote = before.hash !== f.hash ? '; the file changed since' : '';
        const said = `Migration ${f.name} was applied to this hub on ${before.appliedAt} (run ${before.runId}, ${before.status})${changedNote}`;
        if (flags.apply && !flags.force) throw new UsageError(`${said}: not applied again`, `Apply it again with --force, or revert the run with cms undo ${before.runId}.`);
        notes.push(`${said}.`);
        ctx.io.warn(said);
      }
    }
    const options: RunOptions = resumed ?? { file: f.path, hubId, name: f.name, hash: f.hash, publish: Boolean(flags.publish), ignoreSchemaValidation: Boolean(flags.ignoreSchemaValidation), itemTimeoutMs: flags.itemTimeout ?? DEFAULT_ITEM_TIMEOUT_MS, concurrency: flags.concurrency };
    const connection = ctx.connection();
    const target = { apiUrl: connection.apiUrl, profile: connection.profile, hubId };
    const run = await BulkRun.begin(ctx, { dryRun: !flags.apply, resume: flags.resume, progress: flags.progress }, { command: COMMAND, options: { ...options }, target });
    if (run.dryRun) client.readOnly = true;
    const mode = outputMode(ctx);
    const reporter = new Reporter(ctx.io, mode, run.dryRun);
    const model = modelFiles(host);
    const documents = new Map(model.schemas.map((s) => [s.schemaId, s.document as Record<string, unknown>]));
    const validator = new BodyValidator(documents, { client, hubId });
    live = new LiveMigration(run, { client, hubId, host, validator, reporter, ignoreSchemaValidation: options.ignoreSchemaValidation, publish: options.publish, concurrency: options.concurrency, signal: ctx.signal });
    const sync = new Syncer(run, new MemoryMapping(), ctx.signal);
    const out = await run.execute(async () => {
      if (!run.dryRun) await run.resolvePending({ target: clientProbe(client) });
      if (model.schemas.length) await applySchemas(sync, client, { hubId, prune: false }, model.schemas);
      if (model.types.length) await applyTypes(sync, client, { hubId, prune: false }, model.types);
      if (run.failures.length) throw new CliError(`The migration's content model could not be applied: ${run.failures.map((x) => `${x.id}: ${x.reason}`).join('; ')}`, ExitCode.FAILURE);
      await live!.all();
      if (f.info.retire?.length) await retire(run, sync, client, hubId, f.info.retire, notes);
    });
    const modelSteps = sync.steps.map((s) => ({ action: s.action, resource: s.resource, label: s.label, ...(s.changes ? { changes: s.changes } : {}) }));
    if (!run.dryRun && run.journal) {
      const status = run.journal.meta.status;
      if (status === 'completed' || status === 'partial') {
        await writeRecord(client, hubId, { name: f.name, hash: f.hash, runId: run.id!, appliedAt: new Date().toISOString(), status, counts: { ...reporter.counts } });
      }
    }
    const head = run.dryRun ? `Dry run of migration ${f.name}: nothing was changed.` : `Run ${run.id} (migration ${f.name}): ${run.journal?.meta.status ?? 'completed'}.`;
    const extra = [...modelSteps.map((s) => `  ${s.resource} ${s.action}: ${s.label}${s.changes ? `\n      ${s.changes.join('\n      ')}` : ''}`), ...notes.map((n) => `  ${n}`)];
    if (!run.dryRun && run.id) extra.push(`  Undo with: cms undo ${run.id}`);
    else if (reporter.counts.changed) extra.push(`  Apply with: cms migration run ${file ?? f.path} --apply`);
    const result: Output =
      mode === 'json'
        ? item({ migration: f.name, file: f.path, hash: f.hash, hubId, dryRun: run.dryRun, runId: run.id, counts: reporter.counts, model: modelSteps, items: reporter.items, itemsOmitted: reporter.omitted, failures: run.failures, notes })
        : text(summaryText(head, reporter.counts, extra));
    if (out.failure) return failing(result, out.failure);
    if (flags.exitCode && reporter.counts.changed) return failing(result, new CliError(`The migration would still change ${reporter.counts.changed} item(s)`, ExitCode.FAILURE, undefined, 'DRIFT'));
    return result;
  } finally {
    await host.close();
  }
}

/** The content model the migration declares (directories relative to the file). */
function modelFiles(host: MigrationHost) {
  const m = host.file.info.model ?? {};
  const at = (d: string) => resolve(host.baseDir, d);
  return { schemas: m.schemas ? readSchemaFiles(at(m.schemas)) : [], types: m.types ? readTypeFiles(at(m.types)) : [] };
}

/** Archives the content types the migration retires, once every item moved without failure. */
async function retire(run: BulkRun, sync: Syncer, client: ApiClient, hubId: string, uris: string[], notes: string[]): Promise<void> {
  if (run.failures.length) {
    notes.push(`Not retired (some items failed): ${uris.join(', ')}`);
    return;
  }
  const types = new Map<string, { id: string; status: string; settings: unknown }>();
  for await (const t of client.paginate<{ id: string; contentTypeUri: string; status: string; settings: unknown }>(`/hubs/${hubId}/content-types`, 'content-types', { pageSize: 100, query: { status: 'ACTIVE,ARCHIVED' } })) types.set(t.contentTypeUri, t);
  for (const uri of uris) {
    const type = types.get(uri);
    if (!type) {
      notes.push(`Not retired: the hub has no content type ${uri}`);
      continue;
    }
    if (type.status === 'ARCHIVED') continue;
    await sync.act({ key: `archive:${uri}`, resource: 'type', action: 'archive', targetId: type.id, before: { settings: type.settings, status: type.status }, label: `${uri} (retired)` }, () => client.post(`/content-types/${type.id}/archive`, {}));
  }
}

async function runOffline(ctx: Context, file: string | undefined, flags: MigrationFlags): Promise<Output> {
  if (!file) throw new UsageError('Name the migration file: cms migration run <file> --from <export dir>');
  for (const [flag, set] of [['--resume', flags.resume], ['--publish', flags.publish], ['--force', flags.force], ['--hub', flags.hub]] as const) {
    if (set) throw new UsageError(`${flag} does not go with --from: an offline run writes beside the export, not to a hub`);
  }
  const dir = resolve(flags.from!);
  const outDir = resolve(flags.out ?? defaultOut(dir));
  let offline: OfflineMigration | undefined;
  const host = await MigrationHost.load(file, { timeoutMs: flags.itemTimeout ?? DEFAULT_ITEM_TIMEOUT_MS, getItem: (id) => offline!.getItem(id) });
  try {
    const mode = outputMode(ctx);
    const dryRun = !flags.apply;
    const reporter = new Reporter(ctx.io, mode, dryRun);
    const progress = await createProgress(flags.progress ?? 'auto', ctx.io);
    const model = modelFiles(host);
    const exported = readSchemaFilesIfAny(join(dir, 'schemas'));
    const documents = new Map([...exported, ...model.schemas].map((s) => [s.schemaId, s.document as Record<string, unknown>]));
    offline = new OfflineMigration({ dir, out: outDir, host, validator: new BodyValidator(documents), reporter, progress, ignoreSchemaValidation: Boolean(flags.ignoreSchemaValidation), dryRun });
    const started = Date.now();
    await offline.all();
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    progress.stop({ ...reporter.counts, seconds });
    const f = host.file;
    const head = dryRun ? `Dry run of migration ${f.name} on ${dir}: nothing was written.` : `Migration ${f.name} on ${dir}: written to ${outDir}.`;
    const extra = [`  ${seconds} s`];
    if (dryRun && reporter.counts.changed) extra.push(`  Write the result with: cms migration run ${file} --from ${flags.from} --apply`);
    if (f.info.retire?.length) extra.push(`  Content types to retire (on a hub): ${f.info.retire.join(', ')}`);
    const failures = offline.failures;
    if (mode === 'rows') for (const x of failures) ctx.io.err(`failed: ${x.id}: ${x.reason}\n`);
    const result: Output = mode === 'json' ? item({ migration: f.name, file: f.path, hash: f.hash, from: dir, out: dryRun ? null : outDir, dryRun, counts: reporter.counts, items: reporter.items, itemsOmitted: reporter.omitted, failures, seconds }) : text(summaryText(head, reporter.counts, extra));
    if (failures.length) return failing(result, new PartialFailure(`${failures.length} item${failures.length === 1 ? '' : 's'} failed`, failures));
    if (flags.exitCode && reporter.counts.changed) return failing(result, new CliError(`The migration would still change ${reporter.counts.changed} item(s)`, ExitCode.FAILURE, undefined, 'DRIFT'));
    return result;
  } finally {
    await host.close();
  }
}

function readSchemaFilesIfAny(dir: string) {
  try {
    return readSchemaFiles(dir);
  } catch {
    return [];
  }
}
