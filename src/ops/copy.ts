import type { Context } from '../cli/context.js';
import type { OptionSpec } from '../cli/define.js';
import type { IO } from '../cli/io.js';
import { repoId } from '../cli/resolve.js';
import type { ApiClient } from '../core/client.js';
import { ApiError, UsageError, NotFound } from '../core/errors.js';
import { BulkRun, type RunFlags } from './runs/bulk-run.js';
import type { Output } from '../output/result.js';
import type { PlainItem } from './files/content-files.js';
import { LinkClosure, fetchItem, hubRepositories } from './export.js';
import { deliveryKeysFit, importItems, type DeliveryKeysChoice } from './import.js';
import { Journal, type RunTarget } from './runs/journal.js';
import { MemoryMapping } from './files/mapping.js';
import { Governor, runPool } from './runs/pool.js';
import { clientProbe } from './runs/resolve.js';
import { clientForRun } from './undo.js';
import { memorySource } from './sources.js';

// `cms item copy` and `cms item move` between repositories, folders, hubs and profiles. Within
// one hub and profile (without --with-deps) the service's own copy operation does the work;
// otherwise the items (and what they link to) are read into memory and written by the import
// engine. A move then archives its sources; within one hub it hands each delivery key over to
// the copy first (keys are unique in a hub), and within one repository it only changes folders.

export const destinationOptions: OptionSpec[] = [
  { flags: '--to-repo <id|name>', description: 'destination repository (in the destination hub)', complete: 'repositories' },
  { flags: '--to-folder <id>', description: 'destination folder (default: the repository root)' },
  { flags: '--to-profile <name>', description: 'destination profile: another service or credentials (default: the current one)' },
  { flags: '--to-hub <id|name>', description: "destination hub (default: the source hub, or the destination profile's hub)" },
  { flags: '--with-deps', description: 'also copy every item they link to, transitively, with links rewritten to the copies' },
  { flags: '--drop-delivery-keys', description: 'to another hub: copy without the delivery keys (for a hub without the delivery module)' },
  { flags: '--enable-delivery-module', description: 'to another hub: enable its delivery module (Content Delivery 2) when items carry delivery keys and it lacks it' },
];

/** What defines a copy or move run: saved in its journal, reused by --resume. */
export interface CopyPlan {
  ids: string[];
  move: boolean;
  withDeps: boolean;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  sourceHubId: string;
  targetHubId: string;
  targetRepoId: string;
  targetRepoName: string;
  targetFolderId: string | null;
  /** Same service, credentials and hub: the service copy can do it, and delivery keys stay behind. */
  sameHub: boolean;
  /** Delivery keys for a target hub without the delivery module: dropped, or the module enabled. */
  deliveryKeys?: DeliveryKeysChoice;
  /** Fields the service copy takes (the original `cms item copy` flags). */
  service: { label?: string; version?: number | 'latest'; name?: string; locale?: string };
}

export interface CopyFlags {
  hub?: string;
  toRepo?: string;
  toFolder?: string;
  toProfile?: string;
  toHub?: string;
  withDeps?: boolean;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  dropDeliveryKeys?: boolean;
  enableDeliveryModule?: boolean;
}

export interface Clients {
  source: ApiClient;
  target: ApiClient;
  sourceRun: RunTarget;
  targetRun: RunTarget;
}

/** Resolves the destination of a new copy or move (names to ids, the target profile's client). */
export async function planCopy(ctx: Context, ids: string[], flags: CopyFlags, move: boolean, service: CopyPlan['service'] = {}): Promise<{ plan: CopyPlan; clients: Clients }> {
  if (!ids.length) throw new UsageError(`Name the items to ${move ? 'move' : 'copy'}`, 'Or continue an interrupted run with --resume <run-id>.');
  if (!flags.toRepo && !flags.toFolder) throw new UsageError('Name the destination with --to-repo <repo> (and optionally --to-folder <id>)');
  if (flags.concurrency !== undefined && flags.concurrency < 1) throw new UsageError('--concurrency must be at least 1');
  const source = await ctx.client();
  const sourceHubId = await ctx.hubId(flags.hub, source);
  const other = flags.toProfile && flags.toProfile !== ctx.connection().profile ? await ctx.clientFor(flags.toProfile) : undefined;
  const target = other?.client ?? source;
  const targetConnection = other?.connection ?? ctx.connection();
  const targetHubId = flags.toHub || other ? await ctx.hubId(flags.toHub, target, targetConnection) : sourceHubId;
  let targetRepoId = flags.toRepo ? await repoId(ctx, flags.toRepo, targetHubId, target) : undefined;
  if (flags.toFolder) {
    const folder = await target.get<{ contentRepositoryId: string }>(`/folders/${flags.toFolder}`);
    if (targetRepoId && folder.contentRepositoryId !== targetRepoId) throw new UsageError(`Folder ${flags.toFolder} is not in repository ${flags.toRepo}`);
    targetRepoId = folder.contentRepositoryId;
  }
  const targetRepoName = (await target.get<{ name: string }>(`/content-repositories/${targetRepoId}`)).name;
  // Another profile can name the very hub the source is in (same service, same hub id): that is one hub.
  const serviceOf = (c: { embedded: boolean; apiUrl: string; dataDir: string }) => (c.embedded ? `embedded:${c.dataDir}` : c.apiUrl);
  const sameHub = serviceOf(targetConnection) === serviceOf(ctx.connection()) && targetHubId === sourceHubId;
  if (move && sameHub && flags.withDeps) throw new UsageError('Within one hub, links stay valid: --with-deps applies to moves between hubs', 'Drop --with-deps, or copy the graph with cms item copy --with-deps.');
  const conn = ctx.connection();
  return {
    plan: { ids, move, withDeps: Boolean(flags.withDeps), concurrency: flags.concurrency, deliveryKeys: flags.dropDeliveryKeys ? 'drop' : flags.enableDeliveryModule ? 'enable' : undefined, sourceHubId, targetHubId, targetRepoId: targetRepoId!, targetRepoName, targetFolderId: flags.toFolder ?? null, sameHub, service },
    clients: {
      source,
      target,
      sourceRun: { apiUrl: conn.apiUrl, profile: conn.profile, hubId: sourceHubId },
      targetRun: { apiUrl: targetConnection.apiUrl, profile: targetConnection.profile, hubId: targetHubId },
    },
  };
}

/** The clients of a run being resumed, from its journal. */
export async function resumedClients(ctx: Context, meta: { source?: RunTarget; target: RunTarget }): Promise<Clients> {
  const sourceRun = meta.source ?? meta.target;
  return { source: await clientForRun(ctx, sourceRun), target: await clientForRun(ctx, meta.target), sourceRun, targetRun: meta.target };
}

/** Copies (or moves) the plan's items; returns the source -> copy id of each named item. */
export async function copyItems(run: BulkRun, plan: CopyPlan, clients: Clients, io: IO, signal?: AbortSignal): Promise<Record<string, unknown>> {
  // What a killed process wrote without journaling it, on either side (a move archives its sources).
  await run.resolvePending({ target: clientProbe(clients.target), source: clientProbe(clients.source) });
  const items = await readSources(clients.source, plan, io, signal);
  const ids = plan.sameHub && !plan.withDeps ? await serviceCopies(run, plan, items, clients.target, signal) : await engineCopies(run, plan, items, clients, io, signal);
  if (plan.move) await retireSources(run, plan, items, ids, clients, signal);
  return { copies: Object.fromEntries(plan.ids.filter((id) => ids.has(id)).map((id) => [id, ids.get(id)])) };
}

/** The named items, and with --with-deps everything they link to in the source hub. */
async function readSources(client: ApiClient, plan: CopyPlan, io: IO, signal?: AbortSignal): Promise<Map<string, PlainItem>> {
  const items = new Map<string, PlainItem>();
  const missing: string[] = [];
  const governor = new Governor(plan.concurrency);
  await runPool(plan.ids, async (id) => {
    const item = await fetchItem(client, id);
    if (item) items.set(id, item);
    else missing.push(id);
  }, governor, signal);
  if (missing.length) throw new NotFound(`No content item ${missing.join(', ')} in the source`, 'Check the ids, and that --hub or --profile name the source.');
  if (!plan.withDeps) return items;
  const repos = await hubRepositories(client, plan.sourceHubId);
  const closure = new LinkClosure();
  for (const item of items.values()) closure.add(item);
  for (let ids = closure.take(); ids.length; ids = closure.take()) {
    await runPool(ids, async (id) => {
      const item = await fetchItem(client, id);
      if (item && repos.has(item.contentRepositoryId)) {
        items.set(id, item);
        closure.add(item);
      } else io.warn(`linked item ${id} is not in the source hub; links to it are copied as they are`);
    }, governor, signal);
  }
  return items;
}

/** Across hubs or profiles, or with dependencies: the import engine, everything into one repository and folder. */
async function engineCopies(run: BulkRun, plan: CopyPlan, items: Map<string, PlainItem>, clients: Clients, io: IO, signal?: AbortSignal): Promise<ReadonlyMap<string, string>> {
  const repositories = [...(await hubRepositories(clients.source, plan.sourceHubId)).values()];
  const source = memorySource(items.values(), repositories, []);
  // Another hub may lack the module delivery keys need: settled before the first write.
  const keepDeliveryKeys = !plan.sameHub && (await deliveryKeysFit(clients.target, plan.targetHubId, source.deliveryKeys, plan.deliveryKeys, io, run.dryRun));
  const result = await importItems(run, source, {
    client: clients.target,
    hubId: plan.targetHubId,
    repoId: plan.targetRepoId,
    folderId: plan.targetFolderId,
    keepDeliveryKeys,
    mapping: new MemoryMapping(),
    concurrency: plan.concurrency,
    publish: false,
    io,
    signal,
  });
  return new Map([...result.ids].filter(([id]) => !result.failed.has(id)));
}

/** Within one hub: the service copies each item (no delivery key); a move within its own repository only changes folder. */
async function serviceCopies(run: BulkRun, plan: CopyPlan, items: Map<string, PlainItem>, client: ApiClient, signal?: AbortSignal): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  run.progress.start(plan.ids.length, run.dryRun ? 'plan' : plan.move ? 'move' : 'copy');
  const governor = new Governor(plan.concurrency);
  const stop = governor.watch(client);
  try {
    await runPool(plan.ids, async (id) => {
      const key = `item:${id}`;
      const prior = run.done(key);
      try {
        if (prior) run.skip(prior);
        const targetId = prior?.targetId ?? (await copyOne(run, plan, items.get(id)!, client, key));
        ids.set(id, targetId);
        governor.success();
      } catch (err) {
        if (signal?.aborted) throw err;
        run.fail(key, id, err);
      }
    }, governor, signal);
  } finally {
    stop();
  }
  return ids;
}

async function copyOne(run: BulkRun, plan: CopyPlan, src: PlainItem, client: ApiClient, key: string): Promise<string> {
  if (plan.move && src.contentRepositoryId === plan.targetRepoId) return relocate(run, plan, src, client, key);
  const { label = src.label, version = 'latest', name, locale } = plan.service;
  const body = { label, version, name, locale, folderId: plan.targetFolderId ?? undefined };
  const request = { method: 'POST' as const, path: `/content-repositories/${plan.targetRepoId}/content-items`, query: { sourceContentItemId: src.id }, body, idempotencyKey: `${run.id}:${key}` };
  run.intend({ key, action: 'create', resource: 'item', sourceId: src.id, label, request });
  const created = run.dryRun ? { id: `new:${src.id}`, version: 1 } : await client.post<{ id: string; version: number }>(request.path, body, { query: request.query, idempotencyKey: request.idempotencyKey });
  run.record({ key, action: 'create', resource: 'item', sourceId: src.id, targetId: created.id, version: created.version, label }, { tick: true, place: { repository: plan.targetRepoName, folder: plan.targetFolderId ?? '' } });
  return created.id;
}

/** A move within the item's own repository: a change of folder, the item keeps its id. */
async function relocate(run: BulkRun, plan: CopyPlan, src: PlainItem, client: ApiClient, key: string): Promise<string> {
  const step = { key, resource: 'item', sourceId: src.id, targetId: src.id, label: src.label };
  const place = { repository: plan.targetRepoName, folder: plan.targetFolderId ?? '' };
  if ((src.folderId ?? null) === plan.targetFolderId) {
    run.record({ ...step, action: 'unchanged', version: src.version }, { tick: true, place });
    return src.id;
  }
  const before = { version: src.version, folderId: src.folderId };
  run.intend({ ...step, action: 'update', version: src.version, before, expect: { folderId: plan.targetFolderId } });
  const moved = run.dryRun ? { version: src.version + 1 } : await client.patch<{ version: number }>(`/content-items/${src.id}`, { folderId: plan.targetFolderId, version: src.version });
  run.record({ ...step, action: 'update', version: moved.version, before }, { tick: true, place });
  return src.id;
}

/**
 * A move's second half: each copied source is archived. Within one hub the source first gives
 * its delivery key up and the copy takes it.
 */
async function retireSources(run: BulkRun, plan: CopyPlan, items: Map<string, PlainItem>, ids: ReadonlyMap<string, string>, clients: Clients, signal?: AbortSignal): Promise<void> {
  const governor = new Governor(plan.concurrency);
  const moved = plan.ids.filter((id) => ids.has(id) && ids.get(id) !== id);
  await runPool(moved, async (id) => {
    try {
      await retireOne(run, plan, items.get(id)!, ids.get(id)!, clients);
    } catch (err) {
      if (signal?.aborted) throw err;
      run.fail(`retire:${id}`, id, err);
    }
  }, governor, signal);
}

async function retireOne(run: BulkRun, plan: CopyPlan, src: PlainItem, copyId: string, clients: Clients): Promise<void> {
  let current = run.dryRun ? src : await clients.source.get<PlainItem>(`/content-items/${src.id}`);
  const step = { resource: 'item', sourceId: src.id, label: src.label };
  // A resumed move may have released the key already: the journal remembers which it was.
  const released = run.done(`release:${src.id}`);
  const key = (released?.before?.deliveryKey as string | undefined) ?? current.deliveryKey;
  if (plan.sameHub && key && !run.done(`key:${src.id}`) && (released || current.status === 'ACTIVE')) {
    if (!released) current = await setDeliveryKey(run, clients.source, current, null, { ...step, key: `release:${src.id}`, side: 'source' });
    const copy = run.dryRun ? { ...src, id: copyId, deliveryKey: null } : await clients.target.get<PlainItem>(`/content-items/${copyId}`);
    await setDeliveryKey(run, clients.target, copy, key, { ...step, key: `key:${src.id}` });
  }
  if (current.status !== 'ACTIVE' || run.done(`archive-source:${src.id}`)) return;
  const archive = { ...step, key: `archive-source:${src.id}`, action: 'archive' as const, side: 'source' as const, targetId: src.id, before: { version: current.version, status: 'ACTIVE' } };
  run.intend({ ...archive, version: current.version, expect: { status: 'ARCHIVED' } });
  const archived = run.dryRun ? { version: current.version + 1 } : await clients.source.post<{ version: number }>(`/content-items/${src.id}/archive`, { version: current.version }, { idempotent: true });
  run.record({ ...archive, version: archived.version });
}

async function setDeliveryKey(run: BulkRun, client: ApiClient, item: PlainItem, deliveryKey: string | null, step: { key: string; resource: string; sourceId: string; label: string; side?: 'source' }): Promise<PlainItem> {
  const before = { version: item.version, deliveryKey: item.deliveryKey ?? null };
  run.intend({ ...step, action: 'update', targetId: item.id, version: item.version, before, expect: { deliveryKey } });
  const next = run.dryRun ? { ...item, deliveryKey, version: item.version + 1 } : await patchKey(client, item, deliveryKey);
  run.record({ ...step, action: 'update', targetId: item.id, version: next.version, before }, { counted: false });
  return next;
}

async function patchKey(client: ApiClient, item: PlainItem, deliveryKey: string | null): Promise<PlainItem> {
  try {
    return await client.patch<PlainItem>(`/content-items/${item.id}/delivery-key`, { deliveryKey, version: item.version });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) throw new UsageError(`delivery key '${deliveryKey}' is held by another item of the hub: ${err.message}`);
    throw err;
  }
}

/** The whole of `cms item copy` and `cms item move` (new or resumed): plan, run, summary. */
export async function runCopy(ctx: Context, ids: string[], flags: CopyFlags & RunFlags, move: boolean, service: CopyPlan['service'] = {}): Promise<Output> {
  const command = move ? 'item move' : 'item copy';
  const resumed = flags.resume ? Journal.open(ctx.connection().dataDir, flags.resume).meta : undefined;
  const { plan, clients } = resumed ? { plan: resumed.options as unknown as CopyPlan, clients: await resumedClients(ctx, resumed) } : await planCopy(ctx, ids, flags, move, service);
  const run = await BulkRun.begin(ctx, flags, { command, options: { ...plan }, target: clients.targetRun, source: clients.sourceRun });
  if (run.dryRun) clients.source.readOnly = clients.target.readOnly = true;
  return run.execute(() => copyItems(run, plan, clients, ctx.io, ctx.signal));
}
