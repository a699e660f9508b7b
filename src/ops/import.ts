import { createHash } from 'node:crypto';
import type { SkippedFiles } from './files/safe-files.js';
import type { ApiClient } from '../core/client.js';
import { ApiError, CliError, UsageError } from '../core/errors.js';
import type { IO } from '../cli/io.js';
import { isContentLink } from '../server/core/content-links.js';
import { SECOND_PASS, reasonOf, type Place, type RunSteps } from './runs/run-steps.js';
import { TransientRetries } from './runs/transient.js';
import { canonicalJson, folderPath, folderProblem, type FolderInfo, type PlainItem, type RepositoryInfo } from './files/content-files.js';
import { collect, folderTree } from './export.js';
import { WorkGraph, type Unit } from './runs/item-graph.js';
import type { IntentEntry } from './runs/journal.js';
import type { IdMapping } from './files/mapping.js';
import { Governor, WorkQueue, runPool } from './runs/pool.js';
import { clientProbe } from './runs/resolve.js';
import { waitForJob } from './wait-for-job.js';
import { publishItem } from './publish-item.js';
import { sizeHeapFor } from './runs/small-heap.js';

// The engine behind `cms item import`, `cms item copy` (across hubs or with dependencies) and
// `cms item move`: writes items from a source into a target hub, linked items first, rewriting
// content links to target ids, with bounded concurrency under a governor, journaled step by step.

/** What the engine needs of an item before reading it whole: its place and its links. */
export interface ItemRef {
  repoId: string;
  schema: string;
  folderId: string | null;
  links: string[];
}

/** Where items come from: an export directory, or items read from a service into memory. */
export interface ImportSource {
  repositories: RepositoryInfo[];
  folders: FolderInfo[];
  refs: Map<string, ItemRef>;
  load(id: string): Promise<PlainItem> | PlainItem;
  /** How to create a content type the target hub lacks, for the early failure's hint. */
  typeHint(uri: string): string | undefined;
  /** The file an item was read from (an export directory), for failures and CI annotations. */
  fileOf?(id: string): string | undefined;
  /** Whether a target repository is the one a source repository names (default: the same name). */
  matchRepository?(source: RepositoryInfo, target: { name: string; label?: string }): boolean;
  /**
   * The source may be an export of the target hub itself (a layout without a manifest saying
   * where it came from): an unmapped item whose id the target repository holds is that item.
   */
  sameHubIds?: boolean;
  /** How many items carry a delivery key (undefined: not counted). */
  deliveryKeys?: number;
  /** What the source passed over (files a dot hides): reported, and each item file fails the run (exit 3). */
  skipped?: SkippedFiles;
}

/** What to do with delivery keys when the target hub lacks the module they need. */
export type DeliveryKeysChoice = 'drop' | 'enable';

/**
 * Delivery keys need the hub's Content Delivery 2 module: without it every keyed item would fail
 * mid-run. Checked before the run starts: refused (exit 2) unless the user chose to drop the keys
 * or to enable the module (done here, not on a dry run). Returns whether to keep the keys. A
 * client that may not read the hub's modules goes ahead (the service has the last word).
 */
export async function deliveryKeysFit(client: ApiClient, hubId: string, keyed: number | undefined, choice: DeliveryKeysChoice | undefined, io: Pick<IO, 'note'>, dryRun: boolean): Promise<boolean> {
  if (!keyed) return true;
  if (choice === 'drop') return false;
  const answer = await client.get<{ modules: { name: string; enabled: boolean }[] }>(`/admin/hubs/${hubId}/modules`).catch(() => null);
  if (!answer || answer.modules.some((m) => /^(CONTENT_DELIVERY_2|content-delivery-2)$/.test(m.name) && m.enabled)) return true;
  const items = `${keyed} item${keyed === 1 ? ' carries a' : 's carry'} delivery key${keyed === 1 ? '' : 's'}`;
  if (choice !== 'enable') {
    throw new UsageError(`${items}, and hub ${hubId} does not have the delivery module (Content Delivery 2) that delivery keys need: nothing was imported`, 'Run again with --enable-delivery-module to enable it on the hub, or with --drop-delivery-keys to import the items without their keys.');
  }
  if (dryRun) io.note(`Would enable the delivery module (Content Delivery 2) on hub ${hubId}: ${items}`);
  else {
    await client.post(`/admin/hubs/${hubId}/modules/content-delivery-2`);
    io.note(`Enabled the delivery module (Content Delivery 2) on hub ${hubId}: ${items}`);
  }
  return true;
}

export interface ImportTarget {
  client: ApiClient;
  hubId: string;
  /** Every item goes to this repository; otherwise to the one named like its source repository. */
  repoId?: string;
  /** Every item goes to this folder (null: the repository root); undefined recreates the source folder paths. */
  folderId?: string | null;
  /** Delivery keys are unique in a hub: copies within one hub leave them behind. */
  keepDeliveryKeys: boolean;
  mapping: IdMapping;
  /** Source ids whose pair came from a mapping file read from outside (dc-cli's): checked harder. */
  outsideMapping?: ReadonlySet<string>;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  publish: boolean;
  /** Warnings (a folder the manifest lacks) and notes (publishing jobs): all an import says beside its run. */
  io: Pick<IO, 'warn' | 'note'>;
  signal?: AbortSignal;
}

interface TargetRepo {
  id: string;
  name: string;
  label?: string;
  contentTypes: { hubContentTypeId: string; contentTypeUri: string }[];
}

interface TargetItem extends PlainItem {
  _links?: unknown;
}

/** The fields of an item an import decides, compared after mapping ids. */
interface Desired {
  label: string;
  body: PlainItem['body'];
  locale: string | null;
  folderId: string | null;
  deliveryKey: string | null;
}

const NEW = 'new:';
/** From this many items mapped by earlier runs, a re-run reads the target repositories page by page. */
const KNOWN_THRESHOLD = 50;

/** What an import did: source id -> target id of every item written, and the items that failed. */
export interface ImportResult {
  ids: ReadonlyMap<string, string>;
  failed: ReadonlySet<string>;
}

export async function importItems(run: RunSteps, source: ImportSource, target: ImportTarget): Promise<ImportResult> {
  // Before the importer reads the journal: what a killed process wrote without journaling it.
  await run.resolvePending({ target: clientProbe(target.client) });
  sizeHeapFor(source.refs.size);
  if (source.fileOf) {
    const fileOf = source.fileOf;
    run.fileOfKey = (key) => (key.startsWith('item:') ? fileOf(key.slice(5)) : key.startsWith(SECOND_PASS) ? fileOf(key.slice(SECOND_PASS.length)) : undefined);
  }
  reportSkipped(run, source.skipped);
  const importer = new Importer(run, source, target);
  await importer.all();
  return importer.result;
}

/** Nothing an import passes over is silent: a skipped item file is a failure (exit 3), a VCS directory a note. */
function reportSkipped(run: RunSteps, skipped: SkippedFiles | undefined): void {
  for (const file of skipped?.files ?? []) run.fail(`skipped:${file}`, file, new Error(`${file} was skipped: a name starting with a dot is not read as an item (rename it to import it)`));
  for (const dir of skipped?.dirs ?? []) run.note(`${dir} skipped (version control)`);
}

class Importer {
  private readonly client: ApiClient;
  /** Source item id -> target item id: earlier runs' mapping, this run's journal, then this run's creates. */
  private readonly ids: Map<string, string>;
  private readonly failed = new Set<string>();
  private readonly jobs: { id: string; url: string }[] = [];
  private repos = new Map<string, TargetRepo>();
  private folders = new Map<string, string | null>();
  private folderPaths = new Map<string, string>();
  /** Target id -> digest of the target item as it was when the run started (re-runs). */
  private readonly known = new Map<string, { version: number; status: string; repoId: string; digest: string }>();

  constructor(
    private readonly run: RunSteps,
    private readonly source: ImportSource,
    private readonly target: ImportTarget,
  ) {
    this.client = target.client;
    // A dry run's ids (new:...) stay out of the mapping; a real run's ids are the mapping's own
    // map, not a copy of it: one entry per item, not two.
    this.ids = run.dryRun ? new Map(target.mapping.all('item')) : target.mapping.all('item');
    for (const [s, t] of run.journal?.mapping('item') ?? []) {
      target.mapping.set('item', s, t);
      this.ids.set(s, t);
    }
  }

  /** The target id of a source item, for this run's links and later runs (the mapping; a dry run keeps it to itself). */
  private map(sourceId: string, targetId: string): void {
    if (!this.run.dryRun) this.target.mapping.set('item', sourceId, targetId);
    this.ids.set(sourceId, targetId);
  }

  get result(): ImportResult {
    return { ids: this.ids, failed: this.failed };
  }

  async all(): Promise<void> {
    // Before any change: a folder the target could not recreate stops the run (exit 2).
    const problem = folderProblem(this.source.folders);
    if (problem) throw new UsageError(`The source folders cannot be recreated: ${problem}; nothing was imported`);
    this.repos = await this.resolveRepositories();
    await this.assignTypes();
    await this.resolveFolders();
    await this.adoptSameIds();
    await this.readKnown();
    this.run.progress.start(this.source.refs.size, this.run.dryRun ? 'plan' : 'import');
    await this.importAll();
    if (this.jobs.length) await this.waitForPublishing();
  }

  // ---- before any item: repositories, content types, folders ----

  /** Source repository id -> target repository; fails before changing anything when one is missing. */
  private async resolveRepositories(): Promise<Map<string, TargetRepo>> {
    const all = await collect<TargetRepo>(this.client, `/hubs/${this.target.hubId}/content-repositories`, 'content-repositories');
    const byId = new Map(all.map((r) => [r.id, r]));
    const used = new Set([...this.source.refs.values()].map((r) => r.repoId));
    const out = new Map<string, TargetRepo>();
    const missing: string[] = [];
    for (const id of used) {
      const src = this.source.repositories.find((r) => r.id === id);
      const match = this.source.matchRepository ?? ((s: RepositoryInfo, t: TargetRepo) => s.name === t.name);
      const found = this.target.repoId ? byId.get(this.target.repoId) : src && all.find((r) => match(src, r));
      if (found) out.set(id, found);
      else missing.push(src?.name ?? id);
    }
    if (missing.length) {
      throw new CliError(`No repository named ${missing.map((m) => `'${m}'`).join(', ')} in the target hub`, 1, 'Create it (cms repo create --name <name> --label <label>) or name the target with --repo.');
    }
    return out;
  }

  /**
   * Every content type an item uses must be assigned to its target repository: assigned here when
   * the hub has the type, otherwise the run fails before any item, naming the missing types.
   */
  private async assignTypes(): Promise<void> {
    const hubTypes = new Map((await collect<{ id: string; contentTypeUri: string; status: string }>(this.client, `/hubs/${this.target.hubId}/content-types`, 'content-types')).map((t) => [t.contentTypeUri, t]));
    const needed = new Map<string, Set<string>>();
    for (const ref of this.source.refs.values()) {
      const repo = this.repos.get(ref.repoId)!;
      if (!repo.contentTypes.some((t) => t.contentTypeUri === ref.schema)) (needed.get(repo.id) ?? needed.set(repo.id, new Set()).get(repo.id)!).add(ref.schema);
    }
    const all = [...new Set([...needed.values()].flatMap((s) => [...s]))];
    const missing = all.filter((uri) => hubTypes.get(uri)?.status !== 'ACTIVE');
    if (missing.length) throw this.missingTypes(missing, hubTypes);
    for (const [repoId, uris] of needed) for (const uri of uris) await this.assignType(repoId, hubTypes.get(uri)!.id, uri);
  }

  private missingTypes(missing: string[], hubTypes: Map<string, { status: string }>): CliError {
    const lines = missing.map((uri) => `  ${uri}${hubTypes.has(uri) ? ' (archived)' : ''}`);
    const hints = [...new Set(missing.map((uri) => this.source.typeHint(uri)).filter(Boolean))];
    return new CliError(
      `The target hub lacks ${missing.length} content type(s) the items use; nothing was imported:\n${lines.join('\n')}`,
      1,
      hints.length ? `Create them first (with the same --hub), then run the import again:\n    ${hints.join('\n    ')}` : 'Register them in the target hub first (cms schema apply, cms type apply).',
    );
  }

  private async assignType(repoId: string, typeId: string, uri: string): Promise<void> {
    const key = `assign:${repoId}:${typeId}`;
    if (this.run.done(key)) return;
    if (!this.run.dryRun) await this.client.post(`/content-repositories/${repoId}/content-types`, { contentTypeId: typeId });
    const repo = [...this.repos.values()].find((r) => r.id === repoId)!;
    this.run.record({ key, action: 'assign', resource: 'content-type', targetId: typeId, before: { repositoryId: repoId }, label: uri }, { place: { repository: repo.name } });
  }

  /** Source folder id -> target folder id: the fixed --folder, or the same path of names, created where missing. */
  private async resolveFolders(): Promise<void> {
    const byId = new Map(this.source.folders.map((f) => [f.id, f]));
    const used = new Set<string>();
    for (const ref of this.source.refs.values()) if (ref.folderId) used.add(ref.folderId);
    for (const id of used) this.folderPaths.set(id, folderPath(byId, id));
    if (this.target.folderId !== undefined) {
      for (const id of used) this.folders.set(id, this.target.folderId);
      return;
    }
    const trees = new Map<string, Map<string, string>>();
    for (const id of [...used].sort((a, b) => depth(byId, a) - depth(byId, b))) {
      const folder = byId.get(id);
      const repo = this.repos.get(folder?.repository ?? '');
      if (!folder || !repo) {
        this.target.io.warn(`folder ${id} is not in the export's manifest; its items go to the repository root`);
        this.folders.set(id, null);
        continue;
      }
      if (!trees.has(repo.id)) trees.set(repo.id, await targetPaths(this.client, repo.id));
      this.folders.set(id, await this.ensureFolder(byId, folder, repo, trees.get(repo.id)!));
    }
  }

  /** The target folder at the source folder's path, creating it (and its parents) when missing. */
  private async ensureFolder(byId: Map<string, FolderInfo>, folder: FolderInfo, repo: TargetRepo, paths: Map<string, string>): Promise<string> {
    const path = folderPath(byId, folder.id);
    const existing = paths.get(path);
    if (existing) return existing;
    const parentId = folder.parentId && byId.has(folder.parentId) ? await this.ensureFolder(byId, byId.get(folder.parentId)!, repo, paths) : null;
    const key = `folder:${folder.id}`;
    let id = this.run.done(key)?.targetId;
    if (!id) {
      const step = { key, action: 'create' as const, resource: 'folder', sourceId: folder.id, label: path };
      id = this.run.dryRun ? `${NEW}${folder.id}` : await this.createFolder(repo.id, parentId, folder.name, step);
      this.run.record({ ...step, targetId: id }, { place: { repository: repo.name, folder: path } });
    }
    paths.set(path, id);
    return id;
  }

  private async createFolder(repoId: string, parentId: string | null, name: string, step: Omit<IntentEntry, 't' | 'at'>): Promise<string> {
    const path = parentId ? `/folders/${parentId}/folders` : `/content-repositories/${repoId}/folders`;
    const request = { method: 'POST' as const, path, body: { name }, idempotencyKey: this.idempotencyKey(step.key) };
    this.run.intend({ ...step, request });
    return (await this.client.post<{ id: string }>(path, request.body, { idempotencyKey: request.idempotencyKey })).id;
  }

  /** Unmapped source items the target repositories already hold under the same id map to themselves. */
  private async adoptSameIds(): Promise<void> {
    if (!this.source.sameHubIds) return;
    const unmapped = new Map<string, string>();
    for (const [id, ref] of this.source.refs) if (!this.ids.has(id)) unmapped.set(id, this.repos.get(ref.repoId)!.id);
    if (!unmapped.size) return;
    for (const repoId of new Set(unmapped.values())) {
      for await (const item of this.client.paginate<{ id: string }>(`/content-repositories/${repoId}/content-items`, 'content-items', { pageSize: 500, query: { status: 'ACTIVE,ARCHIVED', sort: 'createdDate,asc' } })) {
        if (unmapped.get(item.id) !== repoId) continue;
        this.map(item.id, item.id);
      }
    }
  }

  /**
   * A re-run: the target items earlier runs made, read a page at a time as digests of what an
   * import compares, so an item that has not changed costs no request of its own. Worth it only
   * when many items are mapped already.
   */
  private async readKnown(): Promise<void> {
    const mapped = new Set([...this.source.refs.keys()].map((id) => this.ids.get(id)).filter((t): t is string => Boolean(t)));
    if (mapped.size < KNOWN_THRESHOLD) return;
    for (const repoId of new Set([...this.repos.values()].map((r) => r.id))) {
      for await (const item of this.client.paginate<TargetItem>(`/content-repositories/${repoId}/content-items`, 'content-items', { pageSize: 500, query: { sort: 'createdDate,asc' } })) {
        if (mapped.has(item.id)) this.known.set(item.id, { version: item.version, status: item.status, repoId, digest: digest(comparable(item)) });
      }
    }
  }

  /** An item the start of the run already found unchanged: recorded without a request (publishing aside). */
  private async unchangedAsKnown(key: string, src: PlainItem, targetId: string, desired: Desired, place: Place): Promise<void> {
    const known = this.known.get(targetId)!;
    this.run.record({ key, action: 'unchanged', resource: 'item', sourceId: src.id, targetId, version: known.version, label: src.label }, { place, tick: true });
    if (this.target.publish && known.status === 'ACTIVE') await this.publish(src, { ...src, ...desired, id: targetId, version: known.version }, place);
  }

  private knownUnchanged(targetId: string, repoId: string, src: PlainItem, desired: Desired): boolean {
    const known = this.known.get(targetId);
    return Boolean(known && known.repoId === repoId && known.status === src.status && known.digest === digest(desired));
  }

  // ---- items, linked ones first ----

  private async importAll(): Promise<void> {
    const graph = new WorkGraph(this.source.refs);
    const queue = new WorkQueue<Unit>(this.target.signal);
    const governor = new Governor(this.target.concurrency);
    const stopWatching = governor.watch(this.client);
    queue.push(graph.start());
    if (graph.finished) queue.close();
    // A unit the service refused for now (after the client's own retries) goes back in the queue
    // later instead of failing, with the items linking to it still waiting on it. Nothing is
    // journaled as done until it succeeds, so a kill meanwhile leaves it to --resume.
    const retries = new TransientRetries();
    const worker = async (unit: Unit) => {
      let needsLinks = false;
      const key = `${unit.phase === 'item' ? 'item:' : SECOND_PASS}${unit.id}`;
      try {
        needsLinks = unit.phase === 'item' ? await this.importItem(unit.id) : await this.completeLinks(unit.id);
        governor.success();
      } catch (err) {
        if (this.target.signal?.aborted) throw err;
        if (retries.later(key, err, () => queue.push([unit]), this.target.signal)) {
          this.run.progress.note(`${unit.id}: ${reasonOf(err)}; trying it again later in this run`);
          return;
        }
        this.failed.add(unit.id);
        this.run.fail(key, unit.id, err);
      }
      queue.push(graph.finish(unit, needsLinks));
      if (graph.finished) queue.close();
    };
    try {
      await runPool(queue, worker, governor, this.target.signal);
    } finally {
      retries.cancel();
      stopWatching();
    }
  }

  /** Writes one item (create, update or nothing); true when links to not-yet-written items were left out. */
  private async importItem(id: string): Promise<boolean> {
    const key = `item:${id}`;
    const prior = this.run.done(key);
    if (prior) {
      this.run.skip(prior);
      if (!prior.partial) await this.finishResumed(id, prior.targetId);
      return prior.partial ?? false;
    }
    const src = await this.load(id);
    const repo = this.repos.get(src.contentRepositoryId)!;
    const { desired, stripped } = this.desired(src);
    const place = this.place(src, repo);
    const mapped = this.ids.get(id);
    if (mapped && this.knownUnchanged(mapped, repo.id, src, desired)) {
      await this.unchangedAsKnown(key, src, mapped, desired, place);
      return false;
    }
    const existing = mapped && !mapped.startsWith(NEW) ? await this.mappedTarget(src, mapped, repo) : undefined;
    let current: TargetItem;
    if (existing) current = await this.sync(key, src, existing, desired, place, true);
    else current = await this.create(key, src, repo, desired, stripped, place);
    if (!stripped) await this.finishItem(src, current, place);
    return stripped;
  }

  /** The second pass of an item of a cycle: its links, now that every member exists. */
  private async completeLinks(id: string): Promise<boolean> {
    const key = `${SECOND_PASS}${id}`;
    const prior = this.run.done(key);
    if (prior) {
      await this.finishResumed(id, prior.targetId);
      return false;
    }
    const src = await this.load(id);
    const repo = this.repos.get(src.contentRepositoryId)!;
    const place = this.place(src, repo);
    const { desired } = this.desired(src);
    const targetId = this.ids.get(id)!;
    let current: TargetItem;
    if (this.run.dryRun && targetId.startsWith(NEW)) current = { ...src, ...desired, id: targetId };
    else {
      const existing = await this.fetchTarget(targetId, repo.id);
      if (!existing) throw new CliError(`target item ${targetId} disappeared before its links were completed`);
      current = await this.sync(key, src, existing, desired, place, false);
    }
    await this.finishItem(src, current, place);
    return false;
  }

  private async create(key: string, src: PlainItem, repo: TargetRepo, desired: Desired, stripped: boolean, place: Place): Promise<TargetItem> {
    let created: TargetItem;
    if (this.run.dryRun) created = { ...src, ...desired, id: `${NEW}${src.id}`, version: 1, status: 'ACTIVE', contentRepositoryId: repo.id };
    else {
      const { deliveryKey: _key, ...fields } = desired;
      // A first pass of a cycle may lack links its schema requires; the second pass validates.
      const query = stripped ? { ignoreSchemaValidation: true } : undefined;
      const request = { method: 'POST' as const, path: `/content-repositories/${repo.id}/content-items`, query, body: fields, idempotencyKey: this.idempotencyKey(key) };
      this.run.intend({ key, action: 'create', resource: 'item', sourceId: src.id, partial: stripped || undefined, label: src.label, request });
      created = await this.client.post<TargetItem>(request.path, fields, { idempotencyKey: request.idempotencyKey, query });
    }
    this.run.record({ key, action: 'create', resource: 'item', sourceId: src.id, targetId: created.id, version: created.version, partial: stripped || undefined, label: src.label }, { place, tick: true });
    this.map(src.id, created.id);
    return created;
  }

  /** Brings an existing target item to the desired fields: nothing when equal, else an update (unarchiving first). */
  private async sync(key: string, src: PlainItem, existing: TargetItem, desired: Desired, place: Place, primary: boolean): Promise<TargetItem> {
    const step = { key, resource: 'item', sourceId: src.id, targetId: existing.id, label: src.label, targetLabel: existing.label };
    const counts = { place, tick: primary, counted: primary };
    if (sameContent(existing, desired)) {
      this.run.record({ ...step, action: 'unchanged', version: existing.version }, counts);
      return existing;
    }
    let current = existing;
    if (current.status === 'ARCHIVED') current = await this.changeStatus(src, current, 'unarchive', place);
    const before = { version: current.version, deliveryKey: current.deliveryKey };
    this.run.intend({ ...step, action: 'update', version: current.version, before, expect: { label: desired.label } });
    const updated = await this.update(current, desired);
    this.run.record({ ...step, action: 'update', version: updated.version, before }, counts);
    return updated;
  }

  /** PATCH with the version it is based on. A retry after a processed request meets a version conflict: re-read. */
  private async update(current: TargetItem, desired: Desired): Promise<TargetItem> {
    if (this.run.dryRun) return { ...current, ...desired, version: current.version + 1 };
    try {
      return await this.client.patch<TargetItem>(`/content-items/${current.id}`, { ...desired, version: current.version }, { idempotent: true });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
      const now = await this.client.get<TargetItem>(`/content-items/${current.id}`);
      if (now.version === current.version + 1 && sameContent(now, desired)) return now;
      throw err;
    }
  }

  /**
   * An item the interrupted run had written: what followed the write (archiving, publishing) may
   * not have happened before the run died.
   */
  private async finishResumed(id: string, targetId: string): Promise<void> {
    const src = await this.load(id);
    const publishPending = this.target.publish && !this.run.done(`publish:${id}`);
    if (src.status !== 'ARCHIVED' && !publishPending) return;
    const repo = this.repos.get(src.contentRepositoryId)!;
    const current = await this.fetchTarget(targetId, repo.id);
    if (current) await this.finishItem(src, current, this.place(src, repo));
  }

  /** After an item is complete: its status as in the source, and publishing when asked. */
  private async finishItem(src: PlainItem, current: TargetItem, place: Place): Promise<void> {
    if (src.status !== current.status) current = await this.changeStatus(src, current, src.status === 'ARCHIVED' ? 'archive' : 'unarchive', place);
    if (this.target.publish && current.status === 'ACTIVE') await this.publish(src, current, place);
  }

  private async changeStatus(src: PlainItem, current: TargetItem, action: 'archive' | 'unarchive', place: Place): Promise<TargetItem> {
    const key = `${action}:${src.id}`;
    const step = { key, action, resource: 'item', sourceId: src.id, targetId: current.id, before: { version: current.version, status: current.status }, label: src.label };
    this.run.intend({ ...step, version: current.version, expect: { status: action === 'archive' ? 'ARCHIVED' : 'ACTIVE' } });
    const next = this.run.dryRun
      ? { ...current, status: action === 'archive' ? ('ARCHIVED' as const) : ('ACTIVE' as const), version: current.version + 1 }
      : await this.client.post<TargetItem>(`/content-items/${current.id}/${action}`, { version: current.version }, { idempotent: true });
    this.run.record({ ...step, version: next.version }, { place });
    return next;
  }

  private async publish(src: PlainItem, current: TargetItem, place: Place): Promise<void> {
    const key = `publish:${src.id}`;
    if (this.run.done(key)) return;
    if (!this.run.dryRun) {
      this.jobs.push({ id: src.id, url: await publishItem(this.client, current.id, this.idempotencyKey(key)) });
    }
    this.run.record({ key, action: 'publish', resource: 'item', sourceId: src.id, targetId: current.id, version: current.version, label: src.label }, { place });
  }

  /** --publish waits for every publishing job at the end; a failed job fails its item. */
  private async waitForPublishing(): Promise<void> {
    this.run.note(`waiting for ${this.jobs.length} publishing job(s)`);
    const quiet: Pick<IO, 'note'> = { note() {} };
    const governor = new Governor(this.target.concurrency);
    await runPool(
      this.jobs,
      async (job) => {
        try {
          await waitForJob(this.client, job.url, { timeoutMs: 300_000, intervalMs: 250, io: quiet, signal: this.target.signal, what: 'Publishing job' });
        } catch (err) {
          if (this.target.signal?.aborted) throw err;
          this.run.fail(`publish:${job.id}`, job.id, err);
        }
      },
      governor,
      this.target.signal,
    );
  }

  // ---- helpers ----

  /**
   * The target's version of an item's fields: links rewritten to target ids, links to items of
   * this import not written yet left out (a cycle's first pass), the delivery key kept or not.
   */
  private desired(src: PlainItem): { desired: Desired; stripped: boolean } {
    const failedLink = this.source.refs.get(src.id)?.links.find((id) => this.failed.has(id));
    if (failedLink) throw new CliError(`links to ${failedLink}, which failed`);
    let stripped = false;
    const leftOut = (value: unknown): boolean => {
      const out = isContentLink(value) && this.source.refs.has(value.id) && !this.ids.has(value.id);
      stripped ||= out;
      return out;
    };
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.filter((v) => !leftOut(v)).map(walk);
      if (!value || typeof value !== 'object') return value;
      if (isContentLink(value)) return { ...value, id: this.ids.get(value.id) ?? value.id };
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (!leftOut(v)) out[k] = walk(v);
      return out;
    };
    const keep = this.target.keepDeliveryKeys;
    const body = walk(keep ? src.body : withoutKey(src.body)) as PlainItem['body'];
    const folderId = src.folderId ? (this.folders.get(src.folderId) ?? null) : (this.target.folderId ?? null);
    return { desired: { label: src.label, body, locale: src.locale ?? null, folderId, deliveryKey: keep ? (src.deliveryKey ?? null) : null }, stripped };
  }

  /**
   * The item a mapping names as this source item's target. A mapping can come from outside (a
   * dc-cli mapping file kept in git) and name any item: one of another content type is refused,
   * and so is one in another repository when the pair came from such a file (a pair of this
   * hub's own mapping there means an earlier import into that repository: this one gets its own).
   */
  private async mappedTarget(src: PlainItem, targetId: string, repo: TargetRepo): Promise<TargetItem | undefined> {
    const item = await this.fetchTarget(targetId);
    if (!item) return undefined;
    const named = `the mapped target ${item.id} ("${item.label}")`;
    if (item.contentRepositoryId !== repo.id) {
      if (this.target.outsideMapping?.has(src.id)) throw new CliError(`${named} is in another repository than ${repo.name}: refused (fix the mapping file)`);
      return undefined;
    }
    const [want, have] = [src.body._meta.schema, item.body?._meta?.schema];
    if (want !== have) throw new CliError(`${named} is an item of content type ${have}, the source item of ${want}: refused (fix the mapping)`);
    return item;
  }

  private async fetchTarget(id: string, repoId?: string): Promise<TargetItem | undefined> {
    try {
      const item = await this.client.get<TargetItem>(`/content-items/${id}`);
      // Imported into another repository before: this repository gets its own item.
      return repoId === undefined || item.contentRepositoryId === repoId ? item : undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /**
   * An item read whole, under the refs' copy of its id: the id map, the mapping and the journal
   * then share one string per item instead of keeping another copy from each read.
   */
  private async load(id: string): Promise<PlainItem> {
    const item = await this.source.load(id);
    item.id = id;
    return item;
  }

  private place(src: PlainItem, repo: TargetRepo): Place {
    const folder = this.target.folderId !== undefined ? this.target.folderId ?? '' : src.folderId ? (this.folderPaths.get(src.folderId) ?? '') : '';
    return { repository: repo.name, folder };
  }

  private idempotencyKey(key: string): string {
    return `${this.run.id}:${key}`;
  }
}

function withoutKey(body: PlainItem['body']): PlainItem['body'] {
  const { deliveryKey: _key, ...meta } = body._meta;
  return { ...body, _meta: meta };
}

/** What an import compares of an item (after mapping ids): body, label, locale, folder and delivery key. */
function comparable(item: PlainItem): Desired {
  return { label: item.label, body: item.body, locale: item.locale ?? null, folderId: item.folderId ?? null, deliveryKey: item.deliveryKey ?? null };
}

function sameContent(item: PlainItem, desired: Desired): boolean {
  return canonicalJson(comparable(item)) === canonicalJson(desired);
}

function digest(fields: Desired): string {
  return createHash('sha1').update(canonicalJson(fields)).digest('base64url');
}

function depth(byId: Map<string, FolderInfo>, id: string): number {
  return folderPath(byId, id).split('/').length;
}

/** The target repository's folders by path of names. */
async function targetPaths(client: ApiClient, repoId: string): Promise<Map<string, string>> {
  const tree = await folderTree(client, repoId);
  const byId = new Map(tree.map((f) => [f.id, f]));
  return new Map(tree.map((f) => [folderPath(byId, f.id), f.id]));
}
