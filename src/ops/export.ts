import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ApiClient, QueryValue } from '../core/client.js';
import { ApiError, UsageError, NotFound } from '../core/errors.js';
import { findLinks } from '../server/core/content-links.js';
import {
  FORMAT,
  INDEX,
  IN_PROGRESS,
  MANIFEST,
  exportInProgress,
  fileText,
  itemPath,
  plainItem,
  schemaPath,
  typePath,
  type FolderInfo,
  type Manifest,
  type PlainItem,
  type RepositoryInfo,
  type SchemaInfo,
  type TypeInfo,
  readManifest,
} from './files/content-files.js';
import { Governor, START_CONCURRENCY, WorkQueue, runPool } from './runs/pool.js';
import { FileProblem, SafeDir, checkedId, isSafeId } from './files/safe-files.js';
import type { Progress } from './runs/progress.js';
import { sizeHeapFor } from './runs/small-heap.js';
import { beforeWrite } from '../core/kill-switch.js';

/** Which items an export (or an in-memory copy) reads. */
export interface Selection {
  hubId: string;
  /** Repository ids; all repositories of the hub when empty. */
  repoIds: string[];
  folderId?: string;
  /** Comma list of ACTIVE, ARCHIVED. */
  status: string;
  search?: string;
  /** Facet filters as the facet endpoint takes them. */
  facets: Record<string, unknown>[];
}

export interface ExportOptions extends Selection {
  dir: string;
  withDeps: boolean;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  pageSize: number;
  signal?: AbortSignal;
  progress: Progress;
}

export interface ExportSummary {
  dir: string;
  items: number;
  written: number;
  unchanged: number;
  removed: number;
  dependencies: number;
  repositories: number;
  folders: number;
  types: number;
  schemas: number;
  missingLinks: number;
  seconds: number;
  itemsPerSecond: number;
}

interface Page<T> {
  _embedded?: Record<string, T[]>;
  page?: { number: number; totalPages: number; totalElements: number };
}

const ITEMS = 'content-items';
/** Items an export holds in pages at most (without a fixed --concurrency): 16 pages of 100. */
const PAGED_ITEMS = 1600;

/** Every resource of a paged collection, page by page (the small collections: repositories, folders, types). */
export async function collect<T>(client: ApiClient, path: string, key: string, query?: Record<string, QueryValue>): Promise<T[]> {
  const all: T[] = [];
  for await (const r of client.paginate<T>(path, key, { query, pageSize: 1000 })) all.push(r);
  return all;
}

export async function hubRepositories(client: ApiClient, hubId: string): Promise<Map<string, RepositoryInfo>> {
  const repos = await collect<RepositoryInfo>(client, `/hubs/${hubId}/content-repositories`, 'content-repositories');
  return new Map(repos.map((r) => [r.id, { id: r.id, name: r.name, label: r.label, itemLocales: r.itemLocales ?? [], features: r.features ?? [] }]));
}

/** Every folder of a repository, parents before children. */
export async function folderTree(client: ApiClient, repoId: string): Promise<FolderInfo[]> {
  const out: FolderInfo[] = [];
  let level = (await collect<{ id: string; name: string }>(client, `/content-repositories/${repoId}/folders`, 'folders')).map((f) => ({ ...f, parentId: null as string | null }));
  const seen = new Set<string>();
  while (level.length) {
    // A folder answered twice (a service that loops) is kept once: the walk always ends.
    level = level.filter((f) => !seen.has(f.id) && seen.add(f.id));
    for (const f of level) out.push({ id: f.id, name: f.name, parentId: f.parentId, repository: repoId });
    const next: typeof level = [];
    for (const f of level) for (const c of await collect<{ id: string; name: string }>(client, `/folders/${checkedId(f.id, 'folder')}/folders`, 'folders')) next.push({ ...c, parentId: f.id });
    level = next;
  }
  return out;
}

/** The ids of a folder and every folder below it. */
export function subtree(folders: FolderInfo[], rootId: string): string[] {
  const ids = [rootId];
  for (let i = 0; i < ids.length; i++) for (const f of folders) if (f.parentId === ids[i]) ids.push(f.id);
  return ids;
}

/**
 * Links found in items that were not read yet: what --with-deps still has to fetch. Only ids are
 * kept, never items.
 */
export class LinkClosure {
  private readonly seen = new Set<string>();
  private readonly wanted = new Set<string>();

  add(item: PlainItem): void {
    this.seen.add(item.id);
    this.wanted.delete(item.id);
    for (const link of findLinks(item.body)) if (!this.seen.has(link.id)) this.wanted.add(link.id);
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }

  /** The linked ids not read yet; each is handed out once. */
  take(): string[] {
    const ids = [...this.wanted];
    for (const id of ids) this.seen.add(id);
    this.wanted.clear();
    return ids;
  }
}

type Task = { kind: 'page'; path: string; method: 'GET' | 'POST'; query: Record<string, QueryValue>; body?: unknown; page: number; first: boolean; basic: boolean } | { kind: 'item'; id: string };

/**
 * Reads the selected items, fetching pages with bounded concurrency and handing each item to
 * `onItem` as its page arrives (waiting for what it returns): one page per worker in memory,
 * however many items there are.
 * Selections with a text search or facets go through the facet endpoint (which answers the basic
 * projection), so each of those items is then read whole.
 */
export async function readSelection(client: ApiClient, sel: Selection, folders: FolderInfo[], opts: { concurrency?: number; pageSize: number; signal?: AbortSignal; onTotal(n: number): void; onItem(item: PlainItem): void | Promise<void> }): Promise<void> {
  // Each page in flight is held in memory whole: the governor's ceiling keeps that to about PAGED_ITEMS items.
  const governor = new Governor(opts.concurrency, { max: Math.max(START_CONCURRENCY, Math.floor(PAGED_ITEMS / opts.pageSize)) });
  const stopWatching = governor.watch(client);
  const queue = new WorkQueue<Task>(opts.signal);
  let outstanding = 0;
  const push = (tasks: Task[]) => {
    outstanding += tasks.length;
    queue.push(tasks);
  };
  const settle = () => {
    if (--outstanding === 0) queue.close();
  };
  const worker = async (task: Task) => {
    try {
      if (task.kind === 'item') {
        const item = await fetchItem(client, task.id);
        if (item) await opts.onItem(item);
        return;
      }
      const answer = await fetchPage<PlainItem>(client, task);
      const items = answer._embedded?.[ITEMS] ?? [];
      if (task.basic) push(items.map((i) => ({ kind: 'item', id: i.id })));
      // A page's items are handed over before its slot is free: what they write is the backpressure.
      else await Promise.all(items.map((item) => opts.onItem(item)));
      if (task.first && answer.page) {
        sizeHeapFor(answer.page.totalElements);
        opts.onTotal(answer.page.totalElements);
        const more: Task[] = [];
        for (let p = 1; p < answer.page.totalPages; p++) more.push({ ...task, page: p, first: false });
        push(more);
      }
      governor.success();
    } finally {
      settle();
    }
  };
  const first = firstPages(sel, folders, opts.pageSize);
  push(first);
  if (!first.length) queue.close();
  try {
    await runPool(queue, worker, governor, opts.signal);
  } finally {
    stopWatching();
  }
}

/** The first page of every listing the selection needs; each announces how many pages follow. */
function firstPages(sel: Selection, folders: FolderInfo[], size: number): Task[] {
  const sort = 'createdDate,asc';
  if (sel.search || sel.facets.length) {
    const fields = [...sel.facets, { facetAs: 'ENUM', field: 'status', filter: { type: 'IN', values: sel.status.split(',') } }];
    if (sel.repoIds.length) fields.push({ facetAs: 'ENUM', field: 'contentRepositoryId', filter: { type: 'IN', values: sel.repoIds } });
    if (sel.folderId) fields.push({ facetAs: 'ENUM', field: 'folderId', filter: { type: 'IN', values: subtree(folders, sel.folderId) } });
    const query = { query: sel.search, size, sort };
    return [{ kind: 'page', path: `/hubs/${sel.hubId}/content-items/facet`, method: 'POST', query, body: { fields, returnEntities: true }, page: 0, first: true, basic: true }];
  }
  const listing = (repoId: string, folderId?: string): Task => ({
    kind: 'page',
    path: `/content-repositories/${repoId}/content-items`,
    method: 'GET',
    query: { status: sel.status, size, sort, folderId },
    page: 0,
    first: true,
    basic: false,
  });
  if (sel.folderId) {
    const repo = folders.find((f) => f.id === sel.folderId)!.repository;
    return subtree(folders, sel.folderId).map((id) => listing(repo, id));
  }
  return sel.repoIds.map((id) => listing(id));
}

async function fetchPage<T>(client: ApiClient, task: Extract<Task, { kind: 'page' }>): Promise<Page<T>> {
  const query = { ...task.query, page: task.page };
  if (task.method === 'GET') return client.get<Page<T>>(task.path, { query });
  // The facet search changes nothing: safe to repeat after a dropped connection.
  return (await client.request<Page<T>>('POST', task.path, { query, body: task.body, idempotent: true })).data;
}

/** One item, or undefined when the source has no such item (a dangling link). */
export async function fetchItem(client: ApiClient, id: string): Promise<PlainItem | undefined> {
  try {
    return await client.get<PlainItem>(`/content-items/${checkedId(id)}`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return undefined;
    throw err;
  }
}

/**
 * The index of an export: item id -> "<repository directory>/<content hash>". One short string per
 * item (not an object), since the index is the one thing an export holds for every item.
 */
type Index = Map<string, string>;

const indexEntry = (file: string, hash: string) => `${file.split(sep)[1]}/${hash}`;
const indexedFile = (id: string, entry: string) => join('items', entry.slice(0, entry.lastIndexOf('/')), `${id}.json`);
/** An entry an export could have written: `<repository directory>/<hash>` for a valid id. Others are ignored. */
const validEntry = (id: string, entry: unknown): entry is string => isSafeId(id) && typeof entry === 'string' && /^[A-Za-z0-9_-][\w.-]*\/[\w-]+$/.test(entry);

/** Writes one file per item, skipping those whose content the index says is already there. */
class ItemWriter {
  readonly index: Index = new Map();
  readonly byRepository: Record<string, number> = {};
  readonly schemas = new Set<string>();
  readonly repoIds = new Set<string>();
  written = 0;
  unchanged = 0;
  private readonly previous: Index;

  constructor(
    private readonly files: SafeDir,
    private readonly repos: Map<string, RepositoryInfo>,
    /** An export that did not finish is taken up: its item files may already be there, with no index. */
    private readonly resuming = false,
  ) {
    this.previous = readIndex(files);
  }

  /**
   * Writes the item's file; false when it is not one of the hub's (a link into another hub).
   * Synchronous on purpose: every write goes through SafeDir (contained path, exclusive temporary,
   * rename), which the untrusted directory needs more than the speed of writing off the thread.
   */
  write(item: PlainItem): boolean {
    const repo = this.repos.get(item.contentRepositoryId);
    if (!repo) return false;
    const file = itemPath(repo.name, checkedId(item.id));
    const content = fileText(plainItem(item));
    const entry = indexEntry(file, createHash('sha1').update(content).digest('base64url').slice(0, 16));
    const before = this.previous.get(item.id);
    if (before === entry ? this.files.isRegularFile(file) : before === undefined && this.holds(file, content)) this.unchanged++;
    else {
      beforeWrite('export-file', item.id);
      this.files.writeFile(file, content);
      if (before && indexedFile(item.id, before) !== file) this.files.remove(indexedFile(item.id, before));
      this.written++;
    }
    this.index.set(item.id, entry);
    this.byRepository[repo.name] = (this.byRepository[repo.name] ?? 0) + 1;
    this.schemas.add(item.body._meta.schema);
    this.repoIds.add(repo.id);
    return true;
  }

  /** Whether the file already holds exactly this text (an export resumed without its index: written before it was killed). */
  private holds(file: string, content: string): boolean {
    if (!this.resuming) return false;
    try {
      return this.files.isRegularFile(file) && this.files.readText(file) === content;
    } catch {
      return false;
    }
  }

  /** Removes the files of items an earlier export held and this one no longer selects. */
  removeStale(): number {
    let removed = 0;
    for (const [id, entry] of this.previous) {
      if (this.index.has(id)) continue;
      this.files.remove(indexedFile(id, entry));
      removed++;
    }
    return removed;
  }

  /** Written in slices: one string of the whole index would be the run's largest allocation. */
  saveIndex(): void {
    this.files.writeWith(INDEX, (fd) => this.writeIndex(fd));
  }

  private writeIndex(fd: number): void {
    writeSync(fd, `{"format":${JSON.stringify(FORMAT)},"exportedAt":"${new Date().toISOString()}","items":{`);
    let slice: string[] = [];
    const flush = () => {
      writeSync(fd, slice.join(','));
      slice = [];
    };
    // Sorted: items arrive in whatever order concurrent pages answer, the file must not depend on it.
    for (const id of [...this.index.keys()].sort()) {
      const entry = this.index.get(id)!;
      if (slice.length === 1000) {
        flush();
        writeSync(fd, ',');
      }
      slice.push(`${JSON.stringify(id)}:${JSON.stringify(entry)}`);
    }
    flush();
    writeSync(fd, '}}\n');
  }
}

/** The index of an earlier export; a missing or unusable one (it is only a cache) is empty. */
function readIndex(files: SafeDir): Index {
  try {
    const data = files.readJson(INDEX) as { items?: Record<string, unknown> };
    return new Map(Object.entries(data?.items ?? {}).filter((e): e is [string, string] => validEntry(e[0], e[1])));
  } catch {
    return new Map();
  }
}

/**
 * The directory an export writes: created when missing, taken when empty (dot files aside), an
 * earlier export, or an export that did not finish; refused otherwise. An empty directory is marked
 * in progress (IN_PROGRESS) before any item is written, so a first export killed before its
 * manifest leaves a directory its rerun takes and finishes. Answers the earlier manifest, if any.
 */
function exportDir(dir: string): { files: SafeDir; previous?: Manifest } {
  mkdirSync(dir, { recursive: true });
  const files = new SafeDir(dir);
  if (!readdirSync(files.real).some((name) => !name.startsWith('.'))) {
    files.writeFile(IN_PROGRESS, fileText({ format: FORMAT, startedAt: new Date().toISOString() }));
    return { files };
  }
  let previous: Manifest | undefined;
  try {
    previous = readManifest(dir);
  } catch (err) {
    if (!files.exists(MANIFEST) && exportInProgress(files)) return { files };
    const why = err instanceof FileProblem ? `: ${err.problem}` : '';
    throw new UsageError(`${dir} is not empty and not an export (no ${FORMAT} ${MANIFEST}${why}); nothing was written`, 'Export into an empty or new directory, or into an earlier export.');
  }
  return { files, previous };
}

/** Writes unless the file already holds exactly this text. */
function writeIfChanged(files: SafeDir, file: string, text: string): void {
  try {
    if (files.isRegularFile(file) && files.readText(file) === text) return;
  } catch {
    // Unreadable: written anew.
  }
  files.writeFile(file, text);
}

/**
 * `cms item export`: the selected items (and with --with-deps everything they link to), their
 * content types and schemas, and a manifest, written to `dir` in the layout of content-files.ts.
 */
export async function exportItems(client: ApiClient, opts: ExportOptions): Promise<ExportSummary> {
  const started = Date.now();
  // What does not depend on the items is read at once, alongside them: each round trip counts against a distant service.
  const model = readContentModel(client, opts.hubId);
  model.catch(() => {}); // awaited below; a failure before then must not go unhandled
  const [hub, repos] = await Promise.all([client.get<{ id: string; name: string }>(`/hubs/${opts.hubId}`), hubRepositories(client, opts.hubId)]);
  const selected = opts.repoIds.length ? opts.repoIds : [...repos.keys()];
  const folders = (await Promise.all(selected.map((id) => folderTree(client, id)))).flat();
  if (opts.folderId && !folders.some((f) => f.id === opts.folderId)) {
    throw new NotFound(`No folder ${opts.folderId} in the ${opts.repoIds.length ? 'selected repositories' : 'hub'}`, 'List folders with `cms folder list --repo <repo>`.');
  }
  const { files, previous } = exportDir(opts.dir);
  const writer = new ItemWriter(files, repos, !previous && exportInProgress(files));
  const closure = opts.withDeps ? new LinkClosure() : null;
  let total = 0;
  const onItem = (item: PlainItem) => {
    if (writer.index.has(item.id) || !writer.write(item)) return;
    closure?.add(item);
    opts.progress.step({ key: item.id, action: 'export', ok: true, id: item.id });
  };
  opts.progress.start(null, 'export');
  await readSelection(client, { ...opts, repoIds: selected }, folders, {
    ...opts,
    onTotal: (n) => opts.progress.total((total += n)),
    onItem,
  });
  const selectedCount = writer.index.size;
  const missing = closure ? await readDependencies(client, closure, opts, writer) : [];

  // Folders of every repository that holds exported items (dependencies may add repositories).
  const extraRepos = [...writer.repoIds].filter((id) => !selected.includes(id));
  const allFolders = [...folders, ...(await Promise.all(extraRepos.map((id) => folderTree(client, id)))).flat()];
  const repoIds = [...new Set([...selected, ...writer.repoIds])];
  const { types, schemas } = writeContentModel(await model, files, writer.schemas);
  const removed = writer.removeStale();
  removeStaleModelFiles(files, previous, [...types, ...schemas]);
  const manifest: Manifest = {
    format: FORMAT,
    source: { apiUrl: client.apiBase, hubId: hub.id, hubName: hub.name },
    selection: selectionRecord(opts),
    repositories: repoIds.map((id) => repos.get(id)!).filter(Boolean),
    folders: allFolders,
    types,
    schemas,
    counts: { items: writer.index.size, byRepository: writer.byRepository, dependencies: writer.index.size - selectedCount },
    ...(missing.length ? { missingLinks: missing.sort() } : {}),
  };
  writeIfChanged(files, MANIFEST, fileText(manifest));
  writer.saveIndex();
  // Whole now: no longer an export in progress.
  files.remove(IN_PROGRESS);
  const seconds = (Date.now() - started) / 1000;
  return {
    dir: opts.dir,
    items: writer.index.size,
    written: writer.written,
    unchanged: writer.unchanged,
    removed,
    dependencies: writer.index.size - selectedCount,
    repositories: manifest.repositories.length,
    folders: allFolders.length,
    types: types.length,
    schemas: schemas.length,
    missingLinks: missing.length,
    seconds: Math.round(seconds * 10) / 10,
    itemsPerSecond: Math.round(writer.index.size / Math.max(seconds, 0.001)),
  };
}

/** --with-deps: reads linked items not exported yet, round after round, until nothing new is linked. */
async function readDependencies(client: ApiClient, closure: LinkClosure, opts: ExportOptions, writer: ItemWriter): Promise<string[]> {
  const missing: string[] = [];
  const governor = new Governor(opts.concurrency);
  const stopWatching = governor.watch(client);
  const readOne = async (id: string) => {
    const item = isSafeId(id) ? await fetchItem(client, id) : undefined;
    if (item && (writer.index.has(id) || writer.write(item))) {
      closure.add(item);
      opts.progress.step({ key: id, action: 'export dependency', ok: true, id });
    } else missing.push(id);
    governor.success();
  };
  try {
    for (let ids = closure.take(); ids.length; ids = closure.take()) {
      opts.progress.total(writer.index.size + ids.length);
      await runPool(ids, readOne, governor, opts.signal);
    }
  } finally {
    stopWatching();
  }
  return missing;
}

interface HubType {
  contentTypeUri: string;
  status: string;
  settings: { label?: string } & Record<string, unknown>;
}

interface HubSchema {
  schemaId: string;
  body: string;
  validationLevel: string;
  version: number;
  status: string;
}

/** The hub's content types and schemas (both listings at once). */
async function readContentModel(client: ApiClient, hubId: string): Promise<{ types: HubType[]; schemas: HubSchema[] }> {
  const [types, schemas] = await Promise.all([collect<HubType>(client, `/hubs/${hubId}/content-types`, 'content-types'), collect<HubSchema>(client, `/hubs/${hubId}/content-type-schemas`, 'content-type-schemas')]);
  return { types, schemas };
}

/**
 * The content types the items use and their schemas (with the schemas those reference), written
 * so `cms schema create --file` and `cms type register --body-file` can recreate them elsewhere.
 */
function writeContentModel(model: { types: HubType[]; schemas: HubSchema[] }, files: SafeDir, used: Set<string>): { types: TypeInfo[]; schemas: SchemaInfo[] } {
  const hubTypes = model.types.filter((t) => used.has(t.contentTypeUri));
  const hubSchemas = new Map(model.schemas.map((s) => [s.schemaId, s]));
  const types = hubTypes
    .sort((a, b) => a.contentTypeUri.localeCompare(b.contentTypeUri))
    .map((t) => {
      const file = typePath(t.contentTypeUri);
      writeIfChanged(files, file, fileText({ contentTypeUri: t.contentTypeUri, settings: t.settings }));
      return { contentTypeUri: t.contentTypeUri, label: t.settings.label ?? t.contentTypeUri, status: t.status, file };
    });
  const schemaIds = referencedSchemas([...used], hubSchemas);
  const schemas = schemaIds.map((id) => {
    const s = hubSchemas.get(id)!;
    const file = schemaPath(id);
    // The document itself (what cms schema create --file takes); another validation level needs saying (cms schema apply reads both).
    const doc = JSON.parse(s.body) as unknown;
    writeIfChanged(files, file, fileText(s.validationLevel === 'CONTENT_TYPE' ? doc : { schemaId: id, validationLevel: s.validationLevel, body: doc }));
    return { schemaId: id, validationLevel: s.validationLevel, version: s.version, file };
  });
  return { types, schemas };
}

/** Type and schema files an earlier export listed and this one does not (only names the export itself gives). */
function removeStaleModelFiles(files: SafeDir, previous: Manifest | undefined, current: { file: string }[]): void {
  const keep = new Set(current.map((c) => c.file));
  for (const { file } of [...(previous?.types ?? []), ...(previous?.schemas ?? [])]) {
    if (typeof file === 'string' && !keep.has(file) && /^(types|schemas)[\\/][\w-][\w.-]*\.json$/.test(file)) files.remove(file);
  }
}

/** The used schemas of the hub plus every hub schema their documents mention ($ref), sorted. */
function referencedSchemas(used: string[], hubSchemas: Map<string, HubSchema>): string[] {
  const found = new Set(used.filter((id) => hubSchemas.has(id)));
  const queue = [...found];
  while (queue.length) {
    const body = hubSchemas.get(queue.pop()!)!.body;
    for (const id of hubSchemas.keys()) {
      if (found.has(id) || !body.includes(id)) continue;
      found.add(id);
      queue.push(id);
    }
  }
  return [...found].sort();
}

function selectionRecord(opts: ExportOptions): Record<string, unknown> {
  const { repoIds, folderId, status, search, facets, withDeps } = opts;
  return Object.fromEntries(Object.entries({ repoIds, folderId, status, search, facets: facets.length ? facets : undefined, withDeps }).filter(([, v]) => v !== undefined));
}
