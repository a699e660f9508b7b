import type { Context } from '../cli/context.js';
import type { ApiClient } from '../core/client.js';
import { ApiError, CliError, UsageError } from '../core/errors.js';
import type { BulkRun } from './runs/bulk-run.js';
import { Journal, listRuns, type RunMeta, type RunTarget, type StepEntry } from './runs/journal.js';
import { Governor, runPool } from './runs/pool.js';
import { resolvePending, type Probe } from './runs/resolve.js';
import { REVERTIBLE, revertResource } from './undo-resources.js';
import { findLinks } from '../server/core/content-links.js';

// `cms undo <run-id>`: reverts what a run did, newest change first per resource. Items it created
// are archived (their delivery key released first); items it updated get their previous version
// back (POST restore) and their previous delivery key; what it archived is unarchived and the
// reverse. An item changed since the run (its version moved on) is refused and reported. Folders
// it created are deleted and content type assignments it made are removed, after the items.
// Whatever an item undo refuses still needs is kept, and the summary says so: the items it links
// to (transitively) that undo would archive, the type assignment of its repository, its folder.

interface Item {
  id: string;
  version: number;
  status: 'ACTIVE' | 'ARCHIVED';
  folderId: string | null;
  deliveryKey: string | null;
}

/** What the first pass learns of an item: its state (for the revert) and what it would need if kept. */
interface Seen extends Item {
  label: string;
  repositoryId?: string;
  schema?: string;
  links: string[];
  /** Its version moved on since the run: undo refuses it. */
  changed: boolean;
}

interface ItemView extends Item {
  label?: string;
  contentRepositoryId?: string;
  body?: { _meta?: { schema?: string } };
}

/** The steps of one resource in the run, oldest first. */
interface Group {
  key: string;
  side?: 'source';
  resource: string;
  targetId: string;
  steps: StepEntry[];
}

const NOT_UNDONE = new Set(['unchanged', 'skip', 'publish']);

export interface UndoHistory {
  original: Journal;
  /** Steps of earlier undos of this run (an interrupted undo is continued, not repeated). */
  undone: Map<string, StepEntry>;
  /**
   * Per resource, the version later runs left it at when those runs were undone in turn: their
   * changes cancel out, so undoing runs newest first is never refused for them.
   */
  reverted: Map<string, number>;
}

/** What undo needs to know of the run and of the runs after it. */
export function openForUndo(dataDir: string, runId: string): UndoHistory {
  const original = Journal.open(dataDir, runId);
  if (original.status === 'running') throw new UsageError(`Run ${runId} is still running (process ${original.meta.pid})`, 'Wait for it to finish or stop it, then undo it.');
  const runs = listRuns(dataDir).reverse();
  const undone = new Map<string, StepEntry>();
  for (const meta of runs.filter((r) => r.undoOf === runId)) for (const step of Journal.open(dataDir, meta.id).steps()) undone.set(step.key, step);
  const reverted = new Map<string, number>();
  const later = runs.slice(runs.findIndex((r) => r.id === runId) + 1).filter((r) => !r.undoOf);
  for (const run of later) {
    for (const undo of runs.filter((r) => r.undoOf === run.id)) {
      for (const step of Journal.open(dataDir, undo.id).steps()) if (step.version !== undefined) reverted.set(groupKey(step), step.version);
    }
  }
  return { original, undone, reverted };
}

/**
 * Settles the writes a killed process left without results, in the run and in earlier undos of
 * it, before undo reads them: a write that happened is undone, one that did not is left alone.
 */
export async function resolveForUndo(dataDir: string, runId: string, probes: { target: Probe; source?: Probe }): Promise<void> {
  await resolvePending(Journal.open(dataDir, runId), probes);
  for (const meta of listRuns(dataDir).filter((r) => r.undoOf === runId && r.status !== 'running')) await resolvePending(Journal.open(dataDir, meta.id), probes);
}

/** A client for where the run's requests went: its profile, or the current connection if it is the same service. */
export async function clientForRun(ctx: Context, target: RunTarget): Promise<ApiClient> {
  if (target.profile && target.profile !== ctx.connection().profile) return (await ctx.clientFor(target.profile)).client;
  const current = ctx.connection();
  if (current.apiUrl !== target.apiUrl) {
    throw new UsageError(`The run went to ${target.apiUrl}, but this command talks to ${current.apiUrl}`, `Run it with the profile the run used${target.profile ? ` (--profile ${target.profile})` : ''}.`);
  }
  return ctx.client();
}

export class Undo {
  private readonly foldersCreated = new Set<string>();
  /** Per resource, the version an earlier (interrupted) undo of the run left it at. */
  private readonly undoneVersions = new Map<string, number>();

  constructor(
    private readonly run: BulkRun,
    private readonly original: RunMeta & { steps: StepEntry[] },
    private readonly history: Pick<UndoHistory, 'undone' | 'reverted'>,
    private readonly clients: { target: ApiClient; source?: ApiClient },
    private readonly concurrency: number | undefined,
    private readonly signal?: AbortSignal,
  ) {
    for (const step of history.undone.values()) if (step.version !== undefined) this.undoneVersions.set(groupKey(step), step.version);
  }

  /** Items read by the first pass, until their revert uses them. */
  private readonly seen = new Map<string, Seen>();

  async all(): Promise<void> {
    const groups = groupSteps(this.original.steps);
    for (const g of groups) if (g.resource === 'folder' && g.steps[0]!.action === 'create') this.foldersCreated.add(g.targetId);
    const items = groups.filter((g) => g.resource === 'item');
    this.run.progress.start(groups.length, this.run.dryRun ? 'plan undo' : 'undo');
    // First what undo refuses, and what that still needs: then nothing it needs is undone.
    await this.readAll(items);
    const needed = this.neededByRefused(items);
    const refused = [...this.seen.values()].filter((s) => s.changed);
    for (const g of items) {
      const why = needed.get(g.targetId);
      if (!why) continue;
      this.run.keep({ resource: 'item', id: g.targetId, label: this.seen.get(g.targetId)?.label ?? g.steps[0]!.label ?? '', reason: why });
      this.run.progress.step({ key: g.key, action: 'keep', ok: true, id: g.targetId });
    }
    const kept = [...refused, ...[...needed.keys()].map((id) => this.seen.get(id)!)];
    const retry = await this.revertAll(items.filter((g) => !needed.has(g.targetId)), true);
    // A delivery key another reverted item still held is free now.
    await this.revertAll(retry, false);
    const keptFolders = this.foldersOf(kept, groups);
    for (const g of groups.filter((g) => g.resource !== 'item').reverse()) {
      const why = await this.neededResource(g, kept, keptFolders);
      if (why) {
        this.run.keep({ resource: g.resource, id: g.targetId, label: g.steps[0]!.label ?? '', reason: why });
        this.run.progress.step({ key: g.key, action: 'keep', ok: true, id: g.targetId });
      } else await this.revertOrFail(g, false);
    }
  }

  /** Reads every item with steps left to revert (concurrently): its state, and what it links to. */
  private async readAll(items: Group[]): Promise<void> {
    const pending = items.filter((g) => g.steps.some((_, i) => !this.isDone(`${g.key}:${i}`)));
    const governor = new Governor(this.concurrency);
    const stop = governor.watch(this.clients.target);
    try {
      await runPool(pending, async (g) => {
        try {
          const item = await this.client(g).get<ItemView>(`/content-items/${g.targetId}`);
          const expected = this.expectedVersion(g);
          this.seen.set(g.targetId, {
            id: item.id,
            version: item.version,
            status: item.status,
            folderId: item.folderId ?? null,
            deliveryKey: item.deliveryKey ?? null,
            label: item.label ?? g.steps[0]!.label ?? '',
            repositoryId: item.contentRepositoryId,
            schema: item.body?._meta?.schema,
            links: findLinks(item.body).map((l) => l.id),
            changed: item.version !== expected && item.version !== this.history.reverted.get(g.key),
          });
        } catch (err) {
          // Said by the revert (a 404: 'no longer exists'), which reads it again.
          if (this.signal?.aborted) throw err;
        }
        governor.success();
      }, governor, this.signal);
    } finally {
      stop();
    }
  }

  /**
   * The items undo would retire that a refused item still needs: those it links to, and theirs in
   * turn (a breadth-first walk, each item once), with why.
   */
  private neededByRefused(items: Group[]): Map<string, string> {
    const retired = new Set(items.filter((g) => g.steps[0]!.action === 'create' || g.steps.some((s) => s.action === 'unarchive')).map((g) => g.targetId));
    const needed = new Map<string, string>();
    const queue = [...this.seen.values()].filter((s) => s.changed);
    for (let at = 0; at < queue.length; at++) {
      const from = queue[at]!;
      for (const id of from.links) {
        const to = this.seen.get(id);
        if (!to || to.changed || needed.has(id) || !retired.has(id)) continue;
        needed.set(id, `linked from '${from.label}' (${from.id}), which undo keeps${from.changed ? ' (changed since the run)' : ''}`);
        queue.push(to);
      }
    }
    return needed;
  }

  /** The folders kept items are in, and the folders those are in (by path: an import's folder steps are labelled with it). */
  private foldersOf(kept: Seen[], groups: Group[]): Set<string> {
    const ids = new Set(kept.map((s) => s.folderId).filter((id): id is string => Boolean(id)));
    const paths = groups.filter((g) => g.resource === 'folder' && ids.has(g.targetId)).map((g) => g.steps[0]!.label ?? '');
    for (const g of groups) {
      const label = g.steps[0]!.label;
      if (g.resource === 'folder' && label && paths.some((p) => p.startsWith(`${label}/`))) ids.add(g.targetId);
    }
    return ids;
  }

  /** Why undo leaves a folder or a type assignment as it is: a kept item needs it; undefined to revert it. */
  private async neededResource(g: Group, kept: Seen[], keptFolders: ReadonlySet<string>): Promise<string | undefined> {
    if (!kept.length || g.side === 'source') return undefined;
    if (g.resource === 'folder' && g.steps[0]!.action === 'create' && keptFolders.has(g.targetId)) return 'holds items undo keeps';
    if (g.resource !== 'content-type' || this.isDone(`${g.key}:0`)) return undefined;
    const repositoryId = g.steps[0]!.before?.repositoryId as string | undefined;
    const inRepository = kept.filter((s) => s.repositoryId === repositoryId);
    if (!repositoryId || !inRepository.length) return undefined;
    const type = await this.client(g).get<{ contentTypeUri?: string }>(`/content-types/${g.targetId}`);
    return inRepository.some((s) => s.schema === type.contentTypeUri) ? 'assigned to the repository: items undo keeps there use it' : undefined;
  }

  /** Reverts groups concurrently; returns those refused for a delivery key that may be freed by others. */
  private async revertAll(groups: Group[], deferConflicts: boolean): Promise<Group[]> {
    const deferred: Group[] = [];
    const governor = new Governor(this.concurrency);
    const stop = governor.watch(this.clients.target);
    try {
      await runPool(groups, async (g) => {
        if ((await this.revertOrFail(g, deferConflicts)) === 'deferred') deferred.push(g);
        governor.success();
      }, governor, this.signal);
    } finally {
      stop();
    }
    return deferred;
  }

  private async revertOrFail(g: Group, deferConflicts: boolean): Promise<'done' | 'deferred'> {
    try {
      if (g.resource === 'item') await this.revertItem(g);
      else if (g.resource === 'folder') await this.deleteFolder(g);
      else if (g.resource === 'content-type') await this.unassignType(g);
      else if (REVERTIBLE.has(g.resource)) await revertResource(g, { client: this.client(g), run: this.run, hubId: this.original.target.hubId, isDone: (k) => this.isDone(k) });
      return 'done';
    } catch (err) {
      if (this.signal?.aborted) throw err;
      if (deferConflicts && err instanceof ApiError && err.code === 'DELIVERY_KEY_TAKEN') return 'deferred';
      this.run.fail(g.key, g.targetId, err);
      return 'done';
    }
  }

  private client(g: Group): ApiClient {
    if (g.side === 'source') {
      if (!this.clients.source) throw new CliError('the run changed its source too, but no client for the source is available');
      return this.clients.source;
    }
    return this.clients.target;
  }

  /** Refuses an item changed since the run; otherwise reverts its steps, newest first. */
  private async revertItem(g: Group): Promise<void> {
    const pending = g.steps.map((step, i) => ({ step, key: `${g.key}:${i}` })).filter(({ key }) => !this.isDone(key));
    if (!pending.length) return;
    const client = this.client(g);
    const seen = this.seen.get(g.targetId);
    this.seen.delete(g.targetId);
    let item: Item = seen ? { id: seen.id, version: seen.version, status: seen.status, folderId: seen.folderId, deliveryKey: seen.deliveryKey } : await this.current(client, g.targetId);
    const expected = this.expectedVersion(g);
    if (item.version !== expected && item.version !== this.history.reverted.get(g.key)) throw new CliError(`changed since the run: now version ${item.version}, the run left version ${expected}`);
    if (g.steps[0]!.action === 'create') {
      // Whatever else the run did to an item it created, undoing it means retiring it.
      await this.apply(client, g, item, `${g.key}:0`, this.retirement(item));
    } else {
      for (const { step, key } of pending.reverse()) item = await this.apply(client, g, item, key, reversal(step, item));
    }
    this.run.progress.step({ key: g.key, action: 'revert', ok: true, id: g.targetId });
  }

  private isDone(key: string): boolean {
    return this.history.undone.has(key) || Boolean(this.run.done(key));
  }

  /** The version the item should be at: as the run left it, or as an interrupted undo of it left it. */
  private expectedVersion(g: Group): number {
    return this.undoneVersions.get(g.key) ?? g.steps[g.steps.length - 1]!.version!;
  }

  private async current(client: ApiClient, id: string): Promise<Item> {
    try {
      return await client.get<Item>(`/content-items/${id}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new CliError('no longer exists');
      throw err;
    }
  }

  /**
   * Retiring an item the run created: its delivery key released (another item may want it back),
   * out of the folders the run created (an archived item still fills a folder), archived.
   */
  private retirement(item: Item): Change[] {
    const inNewFolder = Boolean(item.folderId && this.foldersCreated.has(item.folderId));
    const changes: Change[] = [];
    if (item.status === 'ARCHIVED' && (item.deliveryKey || inNewFolder)) changes.push(UNARCHIVE);
    if (item.deliveryKey) changes.push(setKey(null));
    if (inNewFolder) changes.push({ action: 'update', method: 'PATCH', path: '', body: { folderId: null } });
    if (item.status === 'ACTIVE' || changes.length) changes.push(ARCHIVE);
    return changes;
  }

  /** Sends the changes in order; the last one carries the step's key (a resumed undo redoes the rest). */
  private async apply(client: ApiClient, g: Group, item: Item, key: string, changes: Change[]): Promise<Item> {
    for (const [n, change] of changes.entries()) {
      const last = n === changes.length - 1;
      if (change.action === 'update' && change.path === 'delivery-key' && change.afterRestore && (item.deliveryKey ?? null) === (change.body.deliveryKey ?? null)) {
        // Nothing to send, but the step's key marks it reverted: an undo run again does not restore twice.
        if (last) this.run.record({ key, action: 'skip', resource: 'item', targetId: item.id, version: item.version, side: g.side, label: g.steps[0]!.label }, { counted: false });
        continue;
      }
      item = await this.send(client, g, item, last ? key : `${key}.${n}`, change);
    }
    return item;
  }

  /** One version-checked request, journaled with what it changed. */
  private async send(client: ApiClient, g: Group, item: Item, key: string, change: Change): Promise<Item> {
    const url = `/content-items/${item.id}${change.path ? `/${change.path}` : ''}`;
    const before = { version: item.version, status: item.status, deliveryKey: item.deliveryKey, folderId: item.folderId };
    const step = { key, action: change.action, resource: 'item', targetId: item.id, before, side: g.side, label: g.steps[0]!.label };
    this.run.intend({ ...step, version: item.version, expect: expectedAfter(change) });
    const next = this.run.dryRun
      ? { ...item, ...dryRunChange(change), version: item.version + 1 }
      : (await client.request<Item>(change.method, url, { body: { ...change.body, version: item.version }, idempotent: true })).data;
    this.run.record({ ...step, version: next.version }, { place: {} });
    return next;
  }

  private async deleteFolder(g: Group): Promise<void> {
    const key = `${g.key}:0`;
    if (this.isDone(key)) return;
    try {
      if (!this.run.dryRun) await this.client(g).delete(`/folders/${g.targetId}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    this.run.record({ key, action: 'delete', resource: 'folder', targetId: g.targetId, label: g.steps[0]!.label }, { tick: true });
  }

  private async unassignType(g: Group): Promise<void> {
    const key = `${g.key}:0`;
    const repositoryId = g.steps[0]!.before?.repositoryId as string;
    if (this.isDone(key) || !repositoryId) return;
    try {
      if (!this.run.dryRun) await this.client(g).delete(`/content-repositories/${repositoryId}/content-types/${g.targetId}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    this.run.record({ key, action: 'unassign', resource: 'content-type', targetId: g.targetId, before: { repositoryId }, label: g.steps[0]!.label }, { tick: true });
  }
}

interface Change {
  action: StepEntry['action'];
  method: 'POST' | 'PATCH';
  /** Under /content-items/{id}; empty for the item itself. */
  path: string;
  body: Record<string, unknown>;
  /** Sent only when the restore before it did not already bring this delivery key back. */
  afterRestore?: boolean;
}

const ARCHIVE: Change = { action: 'archive', method: 'POST', path: 'archive', body: {} };
const UNARCHIVE: Change = { action: 'unarchive', method: 'POST', path: 'unarchive', body: {} };
const setKey = (deliveryKey: unknown): Change => ({ action: 'update', method: 'PATCH', path: 'delivery-key', body: { deliveryKey } });

/** What reverts one step of the run on an item it did not create. */
function reversal(step: StepEntry, item: Item): Change[] {
  const before = step.before ?? {};
  switch (step.action) {
    case 'archive':
      return item.status === 'ARCHIVED' ? [UNARCHIVE] : [];
    case 'unarchive':
      return item.status === 'ACTIVE' ? [ARCHIVE] : [];
    case 'update':
    case 'restore': {
      // A workflow state the run set (a migration): the previous state back, the content untouched.
      if ('workflowState' in before) return [{ action: 'update', method: 'PATCH', path: 'workflow', body: { state: before.workflowState ?? null } }];
      // Restoring keeps the current delivery key: the previous one is put back after it.
      const restore: Change = { action: 'restore', method: 'POST', path: 'restore', body: { restoreVersion: before.version } };
      return 'deliveryKey' in before ? [restore, { ...setKey(before.deliveryKey ?? null), afterRestore: true }] : [restore];
    }
    default:
      return [];
  }
}

/** What the item shows once the change happened (besides its next version): how a kill's leftover is resolved. */
function expectedAfter(change: Change): Record<string, unknown> | undefined {
  if (change.action === 'archive') return { status: 'ARCHIVED' };
  if (change.action === 'unarchive') return { status: 'ACTIVE' };
  if (change.method === 'PATCH' && change.path !== 'workflow') return change.body;
  return undefined;
}

function dryRunChange(change: Change): Partial<Item> {
  if (change.action === 'archive') return { status: 'ARCHIVED' };
  if (change.action === 'unarchive') return { status: 'ACTIVE' };
  return change.body as Partial<Item>;
}

/** The run's steps per resource, in the order of each resource's first step. */
function groupSteps(steps: StepEntry[]): Group[] {
  const groups = new Map<string, Group>();
  for (const step of steps) {
    if (NOT_UNDONE.has(step.action)) continue;
    const key = groupKey(step);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, side: step.side, resource: step.resource, targetId: step.targetId, steps: [] }));
    g.steps.push(step);
  }
  return [...groups.values()];
}

function groupKey(step: Pick<StepEntry, 'side' | 'resource' | 'targetId'>): string {
  return `undo:${step.side ?? 'target'}:${step.resource}:${step.targetId}`;
}
