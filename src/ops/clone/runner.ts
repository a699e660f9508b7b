import type { Context } from '../../cli/context.js';
import { commaList } from '../../cli/input.js';
import { UsageError } from '../../core/errors.js';
import { text, type Output } from '../../output/result.js';
import { alignedLines } from '../../output/text-table.js';
import { BulkRun, type RunFlags } from '../runs/bulk-run.js';
import { Journal, listRuns, type RunTarget, type StepEntry } from '../runs/journal.js';
import { MemoryMapping } from '../files/mapping.js';
import { Syncer, isPlanned } from '../runs/reconcile.js';
import { failureLines, noteLines, stepLines, tsv } from '../runs/run-report.js';
import { CloneContext, STEPS, type ClonePlan, type Side, type StepName } from './context.js';
import { openSource, openTarget, runTarget } from './endpoints.js';
import { cloneEvents } from './events.js';
import { cloneExtensions } from './extensions.js';
import { cloneFolders } from './folders.js';
import { cloneItems } from './items.js';
import { cloneRepositories } from './repositories.js';
import { cloneSchemas } from './schemas.js';
import { cloneSearchIndexes } from './search-indexes.js';
import { cloneSettings } from './settings.js';
import { cloneTypes } from './types.js';
import { cloneWebhooks } from './webhooks.js';
import { cloneWorkflowStates } from './workflow-states.js';

// `cms hub clone --from <profile>[:<hub>] --to <profile>[:<hub>]`: creates the target hub when
// missing, then runs the steps in order. Every step matches what the target already has (the id
// mapping of earlier clones between the same hubs, else names), so a rerun updates instead of
// duplicating. The source is only read (its client refuses writes); a dry run sends no write to
// the target either.

const RUNNERS: Record<StepName, (c: CloneContext) => Promise<void>> = {
  settings: cloneSettings,
  'workflow-states': cloneWorkflowStates,
  extensions: cloneExtensions,
  schemas: cloneSchemas,
  types: cloneTypes,
  repositories: cloneRepositories,
  folders: cloneFolders,
  items: cloneItems,
  events: cloneEvents,
  webhooks: cloneWebhooks,
  'search-indexes': cloneSearchIndexes,
};

/** Which step a journaled resource belongs to, for the per-step counts. */
const STEP_OF: Record<string, StepName> = {
  'hub-settings': 'settings',
  'workflow-state': 'workflow-states',
  extension: 'extensions',
  schema: 'schemas',
  type: 'types',
  'type-schema': 'types',
  'type-assignment': 'types',
  repository: 'repositories',
  'localization-group': 'repositories',
  folder: 'folders',
  item: 'items',
  'item-workflow': 'items',
  'content-type': 'items',
  event: 'events',
  edition: 'events',
  'edition-slot': 'events',
  snapshot: 'events',
  webhook: 'webhooks',
  'search-index': 'search-indexes',
};

const stepOf = (row: { resource: string; label?: string }): StepName | undefined =>
  row.resource === 'hub-module' ? (row.label === 'search-index' ? 'search-indexes' : 'items') : STEP_OF[row.resource];

export interface CloneFlags extends RunFlags {
  from?: string;
  to?: string;
  step?: string[];
  schedule?: boolean;
  webhooks?: string;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
}

export async function runClone(ctx: Context, flags: CloneFlags): Promise<Output> {
  const { plan, source, target } = flags.resume ? await resumePlan(ctx, flags.resume) : await newPlan(ctx, flags);
  const run = await BulkRun.begin(ctx, flags, { command: 'hub clone', options: { ...plan }, target: runTarget(target), source: runTarget(source) });
  source.client.readOnly = true;
  if (run.dryRun) target.client.readOnly = true;
  const sync = new Syncer(run, priorMapping(ctx.connection().dataDir, run, runTarget(source), runTarget(target)), ctx.signal);
  const c = new CloneContext(sync, source, target, plan, ctx.io, [], ctx.signal);
  const failedBy: Partial<Record<StepName, number>> = {};
  let summary: Record<string, unknown> = {};
  const out = await run.execute(async () => {
    const created = await ensureTargetHub(c);
    rememberTargetHub(c);
    for (const step of STEPS.filter((s) => plan.steps.includes(s))) failedBy[step] = await runStep(c, step);
    summary = cloneSummary(c, failedBy, created);
    return summary;
  });
  if (out.kind !== 'text') return out;
  const all = { ...run.summary(), ...summary };
  if (!ctx.io.isTTY) for (const f of c.run.failures) ctx.io.err(`failed: ${f.id}: ${f.reason}\n`);
  return { ...text(ctx.io.isTTY ? renderClone(c, all) : pipedClone(c, all)), failure: out.failure };
}

/** Piped, without headers: a dry run's plan (action, resource, label, differences), else a row of counts per step (step, create, update, unchanged, failed). */
function pipedClone(c: CloneContext, summary: Record<string, unknown>): string {
  if (c.dryRun) return tsv(c.sync.planWithChanges().filter((r) => r.action !== 'unchanged' && r.action !== 'fail').map((r) => [r.action, r.resource, r.label, (r.changes ?? []).join('; ')]));
  const columns = ['create', 'update', 'unchanged', 'failed'];
  return tsv(Object.entries(summary.steps as Record<string, Counts>).map(([step, counts]) => [step, ...columns.map((k) => counts[k] ?? 0)]));
}

async function newPlan(ctx: Context, flags: CloneFlags): Promise<{ plan: ClonePlan; source: Side; target: Side }> {
  if (!flags.from || !flags.to) throw new UsageError('Name both ends: cms hub clone --from <profile>[:<hub>] --to <profile>[:<hub>]', 'Or continue an interrupted clone with --resume <run-id>.');
  const steps = commaList(flags.step);
  const unknown = steps.filter((s) => !(STEPS as readonly string[]).includes(s));
  if (unknown.length) throw new UsageError(`Unknown step ${unknown.map((s) => `'${s}'`).join(', ')}`, `Steps, in order: ${STEPS.join(', ')}`);
  if (flags.webhooks && flags.webhooks !== 'active' && flags.webhooks !== 'inactive') throw new UsageError(`--webhooks is active or inactive, not '${flags.webhooks}'`);
  if (flags.concurrency !== undefined && flags.concurrency < 1) throw new UsageError('--concurrency must be at least 1');
  const source = await openSource(ctx, flags.from);
  const target = await openTarget(ctx, flags.to, source.hubName);
  if (target.connection.apiUrl === source.connection.apiUrl && target.hubId === source.hubId) throw new UsageError('The source and the target are the same hub', 'Name another target hub: --to <profile>:<new hub name>.');
  const plan: ClonePlan = {
    from: flags.from,
    to: flags.to,
    sourceHubId: source.hubId,
    targetHubName: target.hubName,
    targetHubId: isPlanned(target.hubId) ? undefined : target.hubId,
    steps: steps.length ? (steps as StepName[]) : [...STEPS],
    schedule: Boolean(flags.schedule),
    webhooks: flags.webhooks === 'active' ? 'active' : 'inactive',
    concurrency: flags.concurrency,
  };
  return { plan, source, target };
}

/** The plan of an interrupted clone; its target hub may have been created meanwhile. */
async function resumePlan(ctx: Context, runId: string): Promise<{ plan: ClonePlan; source: Side; target: Side }> {
  const journal = Journal.open(ctx.connection().dataDir, runId);
  if (journal.meta.command !== 'hub clone') throw new UsageError(`Run ${runId} is a '${journal.meta.command}' run, not 'hub clone'`, `Resume it with: cms ${journal.meta.command} --resume ${runId}`);
  const plan = journal.meta.options as unknown as ClonePlan;
  const targetHubId = plan.targetHubId ?? journal.done('hub')?.targetId;
  const source = await openSource(ctx, plan.from, plan.sourceHubId);
  return { plan, source, target: await openTarget(ctx, plan.to, plan.targetHubName, targetHubId) };
}

/**
 * Source id -> target id per resource kind: the journals of earlier clones between the same two
 * hubs (oldest first, so the latest wins), then this run's own journal (a resumed run).
 */
function priorMapping(dataDir: string, run: BulkRun, source: RunTarget, target: RunTarget): MemoryMapping {
  const ids = new MemoryMapping();
  const load = (steps: StepEntry[]) => {
    for (const s of steps) if (s.sourceId && !s.side && !isPlanned(s.targetId)) ids.set(s.resource, s.sourceId, s.targetId);
  };
  if (target.hubId) {
    for (const meta of listRuns(dataDir).reverse()) {
      if (meta.command !== 'hub clone' || meta.id === run.id || !meta.source) continue;
      const journal = Journal.open(dataDir, meta.id);
      const hubId = meta.target.hubId ?? journal.done('hub')?.targetId;
      if (meta.source.apiUrl === source.apiUrl && meta.source.hubId === source.hubId && meta.target.apiUrl === target.apiUrl && hubId === target.hubId) load(journal.steps());
    }
  }
  load(run.journal?.steps() ?? []);
  return ids;
}

/** Creates the target hub (label and description from the source) unless it exists. */
async function ensureTargetHub(c: CloneContext): Promise<boolean> {
  if (!isPlanned(c.target.hubId)) return false;
  const source = await c.source.client.get<{ label: string; description?: string }>(`/hubs/${c.source.hubId}`);
  const spec = { key: 'hub', resource: 'hub', action: 'create' as const, targetId: c.target.hubId, label: c.target.hubName };
  if (c.dryRun) {
    c.sync.record(spec);
    return true;
  }
  const body = { name: c.target.hubName, label: source.label, description: source.description };
  const made = await c.target.client.post<{ id: string }>('/hubs', body, { idempotencyKey: c.sync.idempotencyKey('hub') });
  c.target.hubId = made.id;
  c.sync.record({ ...spec, targetId: made.id });
  return true;
}

/**
 * The target hub in the run's meta (saved with the run's end), also when an interrupted run
 * created it: later clones between the same hubs find this one's mapping, undo its hub.
 */
function rememberTargetHub(c: CloneContext): void {
  if (c.run.journal && !isPlanned(c.target.hubId)) c.run.journal.meta.target.hubId = c.target.hubId;
}

/** One step; an error that stops it (not one resource's) fails the step, and the next one runs. */
async function runStep(c: CloneContext, step: StepName): Promise<number> {
  const before = c.run.failures.length;
  try {
    await RUNNERS[step](c);
  } catch (err) {
    if (c.signal?.aborted) throw err;
    c.run.fail(`step:${step}`, `step ${step}`, err);
  }
  return c.run.failures.length - before;
}

type Counts = Record<string, number>;

/** What the run did (or, in a dry run, would do): per step, per action. */
function cloneSummary(c: CloneContext, failedBy: Partial<Record<StepName, number>>, hubCreated: boolean): Record<string, unknown> {
  const steps: Partial<Record<StepName, Counts>> = {};
  for (const step of STEPS.filter((s) => c.plan.steps.includes(s))) steps[step] = { create: 0, update: 0, unchanged: 0, failed: failedBy[step] ?? 0 };
  for (const row of recordedRows(c)) {
    const step = stepOf(row);
    const counts = step && steps[step];
    if (counts) counts[row.action] = (counts[row.action] ?? 0) + 1;
  }
  const total = (action: string) => Object.values(steps).reduce((n, s) => n + (s[action] ?? 0), 0);
  return {
    source: { spec: c.plan.from, hubId: c.source.hubId, hub: c.source.hubName },
    target: { spec: c.plan.to, hubId: c.target.hubId, hub: c.target.hubName, created: hubCreated },
    steps,
    created: total('create'),
    updated: total('update'),
    unchanged: total('unchanged'),
    notes: c.notes,
    ...(c.dryRun ? { plan: c.sync.planWithChanges().filter((r) => r.action !== 'fail') } : {}),
  };
}

/** Every step of the run: the dry run's plan, or the journal (each unit of work once, its last entry). */
function recordedRows(c: CloneContext): { resource: string; action: string; label?: string }[] {
  // A failure is counted apart (and a dry run's plan lists it as an item's).
  if (c.dryRun) return c.run.plan.filter((r) => r.action !== 'fail');
  const last = new Map<string, StepEntry>();
  for (const entry of c.run.journal?.steps() ?? []) if (!entry.key.startsWith('links:')) last.set(entry.key, entry);
  return [...last.values()];
}

function renderClone(c: CloneContext, summary: Record<string, unknown>): string {
  const what = `cms hub clone ${c.plan.from} → ${c.plan.to}`;
  const head = c.dryRun ? `Dry run of ${what}: nothing was changed.` : `Run ${c.run.id} (${what}): ${c.run.journal?.meta.status ?? 'completed'} in ${summary.seconds} s`;
  const steps = summary.steps as Record<string, Counts>;
  const columns = ['create', 'update', 'unchanged', 'failed'];
  const table = [['STEP', ...columns.map((k) => k.toUpperCase()), 'OTHER']];
  for (const [step, counts] of Object.entries(steps)) {
    const other = Object.entries(counts).filter(([k]) => !columns.includes(k)).map(([k, n]) => `${k} ${n}`).join(', ');
    table.push([step, ...columns.map((k) => String(counts[k] ?? 0)), other]);
  }
  const target = summary.target as { hub: string; created: boolean };
  const lines = [head, ...(target.created ? [`The target hub ${target.hub} ${c.dryRun ? 'would be' : 'was'} created.`] : []), '', ...alignedLines(table)];
  // Built as one list: spread into push(), a plan line per item overflows the stack on a large hub.
  const plan = c.dryRun ? ['', 'PLAN', ...stepLines(c.sync.planWithChanges().filter((r) => r.action !== 'unchanged' && r.action !== 'fail'))] : [];
  return `${[...lines, ...plan, ...noteLines(c.notes), ...failureLines(c.run.failures)].join('\n')}\n`;
}
