import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join, posix, sep } from 'node:path';
import type { ApiClient } from '../core/client.js';
import { NotFound, UsageError } from '../core/errors.js';
import { findLinks } from '../server/core/content-links.js';
import { MANIFEST, type FolderInfo, type PlainItem, type RepositoryInfo } from './files/content-files.js';
import { LinkClosure, fetchItem, folderTree, hubRepositories, readSelection, type ExportOptions, type ExportSummary } from './export.js';
import type { ImportSource, ItemRef } from './import.js';
import type { IdMapping } from './files/mapping.js';
import { FileProblem, SafeDir, checkedId, isSafeId, type SkippedFiles } from './files/safe-files.js';

// The layout of the hosted service's own CLI (@amplience/dc-cli), read and written as an adapter
// of the cms import/export engines:
//
//   <dir>/<repository label>/<folder>/<sub-folder>/.../<item label>[-n].json
//
// Each file is the item resource as the service answers it (id, label, body, status, folderId,
// version, ...). Names are the label with the characters file systems refuse removed, made unique
// in their directory (case-insensitively) with -1, -2, ...; the folder of an item is its directory
// (the `folderId` inside the file belongs to the source hub). `_dependancies/` holds linked items
// exported from outside the selection: they go to the repository root. Its mapping file is
// {"contentItems": [[source id, target id], ...], "workflowStates": [...], ...}.

export type Layout = 'cms' | 'dc-cli';
export const LAYOUTS: readonly Layout[] = ['cms', 'dc-cli'];
const DEPENDENCIES = '_dependancies';

/** The layout of an import directory: a cms manifest, else a tree of JSON files without `items/`. */
export function detectLayout(dir: string): Layout {
  const files = new SafeDir(dir);
  if (files.exists(MANIFEST) || files.exists('items')) return 'cms';
  return files.jsonFiles().length ? 'dc-cli' : 'cms';
}

/**
 * A name as that CLI makes it from a label: characters Windows, macOS and Linux refuse (and
 * control characters) removed, reserved names and trailing dots and spaces dropped, leading dots
 * made one `_`, at most 255 bytes. Never empty, never a dot file.
 */
export function fileSafeName(label: string): string {
  let s = label.replace(/[/?<>\\:*|"]/g, '').replace(/[\x00-\x1f\x80-\x9f]/g, '');
  if (/^\.+$/.test(s)) s = '';
  if (/^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i.test(s)) s = '';
  s = s.replace(/[. ]+$/, '');
  // Never a dot first: readers (ours, dc-cli's, shells) skip dot files, so `.env` or `../../x`
  // (`....x` once the slashes are gone) would be exported and then silently not imported.
  s = s.replace(/^\.+/, '_');
  while (Buffer.byteLength(s) > 250) s = s.slice(0, -1);
  return s || '_';
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An item file of the layout as a plain item of the cms engine (its place given by its path). */
function itemOf(raw: unknown, repoId: string, folderId: string | null, path: string): PlainItem {
  const body = isObject(raw) ? raw.body : undefined;
  if (!isObject(raw) || !isSafeId(raw.id) || typeof raw.label !== 'string' || !isObject(body) || !isObject(body._meta) || typeof body._meta.schema !== 'string') {
    throw new FileProblem(path, 'is not a content item (it needs an id, a label and a body with _meta.schema)');
  }
  const key = typeof body._meta.deliveryKey === 'string' ? body._meta.deliveryKey : typeof raw.deliveryKey === 'string' ? raw.deliveryKey : null;
  return {
    id: raw.id,
    label: raw.label,
    body: body as PlainItem['body'],
    locale: typeof raw.locale === 'string' ? raw.locale : null,
    folderId,
    deliveryKey: key,
    version: typeof raw.version === 'number' ? raw.version : 1,
    status: raw.status === 'ARCHIVED' ? 'ARCHIVED' : 'ACTIVE',
    contentRepositoryId: repoId,
  };
}

/**
 * A content directory of that CLI as an import source. Without `oneRepository` each top-level
 * directory is a repository (matched by label, as that CLI does, or by name); with it the whole
 * directory is that repository's root (its `--baseRepo`).
 */
export function dcCliSource(dir: string, oneRepository: boolean): ImportSource {
  const safe = new SafeDir(dir);
  const repositories = new Map<string, RepositoryInfo>();
  const folders = new Map<string, FolderInfo>();
  const files = new Map<string, string>();
  const refs = new Map<string, ItemRef>();
  const places = new Map<string, { repoId: string; folderId: string | null }>();
  const topLevel: string[] = [];
  const skipped: SkippedFiles = { files: [], dirs: [] };
  for (const file of safe.jsonFiles('', undefined, skipped)) {
    const parts = file.split(sep);
    if (!oneRepository && parts.length === 1) {
      topLevel.push(file);
      continue;
    }
    const repoDir = oneRepository ? '.' : parts[0];
    const repoId = `dc-cli:${repoDir}`;
    if (!repositories.has(repoId)) repositories.set(repoId, { id: repoId, name: repoDir, label: repoDir, itemLocales: [], features: [] });
    const folderNames = parts.slice(oneRepository ? 0 : 1, -1);
    let folderId: string | null = null;
    if (folderNames[0] !== DEPENDENCIES) {
      for (const [i, name] of folderNames.entries()) {
        const id = `${repoId}/${folderNames.slice(0, i + 1).join('/')}`;
        if (!folders.has(id)) folders.set(id, { id, name, parentId: folderId, repository: repoId });
        folderId = id;
      }
    }
    const item = itemOf(safe.readJson(file), repoId, folderId, safe.path(file));
    if (files.has(item.id)) throw new UsageError(`Item ${item.id} is in two files of ${dir}: ${files.get(item.id)} and ${file}`);
    files.set(item.id, file);
    places.set(item.id, { repoId, folderId });
    refs.set(item.id, { repoId, schema: item.body._meta.schema, folderId, links: findLinks(item.body).map((l) => l.id) });
  }
  if (topLevel.length) {
    throw new UsageError(
      `${dir} holds item files outside any repository directory (${topLevel.slice(0, 3).join(', ')}${topLevel.length > 3 ? ', ...' : ''}); nothing was imported`,
      'In this layout each top-level directory is a repository, named by its label. For an export of one repository, name it with --repo.',
    );
  }
  return {
    repositories: [...repositories.values()],
    folders: [...folders.values()],
    refs,
    load: (id) => {
      const place = places.get(id)!;
      return itemOf(safe.readJson(files.get(id)!), place.repoId, place.folderId, safe.path(files.get(id)!));
    },
    fileOf: (id) => (files.has(id) ? safe.path(files.get(id)!) : undefined),
    typeHint: () => 'cms schema apply <dc-cli content-type-schemas export> && cms type apply <dc-cli content-types export>',
    matchRepository: (src, target) => target.name === src.name || fileSafeName(target.label ?? '') === src.name,
    sameHubIds: true,
    skipped,
  };
}

// ---- the mapping file ----

interface MappingFile {
  contentItems?: unknown;
  [kind: string]: unknown;
}

const pairs = (v: unknown): v is [string, string][] => Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');

/** Reads that CLI's mapping file (a missing one is empty) and adds its item pairs to the mapping. */
export function readMappingFile(path: string): MappingFile {
  const files = new SafeDir(dirname(path));
  if (!files.exists(basename(path))) return {};
  const data = files.readJson(basename(path));
  if (!isObject(data) || (data.contentItems !== undefined && !pairs(data.contentItems))) throw new FileProblem(path, 'is not a mapping file (it needs "contentItems": [[source id, target id], ...])');
  return data;
}

/** Adds the mapping file's item pairs (those naming a usable target id) to `mapping`; returns their source ids. */
export function useMappingFile(data: MappingFile, mapping: IdMapping): Set<string> {
  const added = new Set<string>();
  for (const [s, t] of (data.contentItems as [string, string][] | undefined) ?? []) {
    if (!isSafeId(t)) continue;
    mapping.set('item', s, t);
    added.add(s);
  }
  return added;
}

/** Writes the mapping file back with every item pair known for the hub, keeping its other lists. */
export function writeMappingFile(path: string, before: MappingFile, mapping: IdMapping): void {
  const out = { workflowStates: [], ...before, contentItems: [...mapping.all('item')] };
  new SafeDir(dirname(path)).writeFile(basename(path), JSON.stringify(out));
}

// ---- schema definition files whose body names a document ----

/**
 * The file (relative to the directory) a schema definition's `body` names, or a problem. That
 * CLI resolves `./` paths against the directory; its exports wrote `schemas/<name>.json` beside
 * the definition (older ones prefixed the export directory as typed, relative to where it ran).
 */
export function schemaBodyFile(files: SafeDir, definition: string, body: string): string {
  if (/^https?:\/\//i.test(body)) throw new Error(`body is a URL (${body.slice(0, 200)}); cms does not download schema documents: save the document in the directory and name it, e.g. "./schemas/${basename(body.split('?')[0]!) || 'schema.json'}"`);
  const path = body.replace(/^file:\/\//i, '').replace(/\\/g, '/');
  if (posix.isAbsolute(path)) throw new Error(`body names ${JSON.stringify(body)}, an absolute path: name a file inside the directory instead (e.g. "./schemas/...")`);
  const here = dirname(definition).split(sep).join('/');
  const parts = path.split('/');
  const candidates = [posix.join(here, path), path, parts.length >= 2 && parts.at(-2) === 'schemas' ? posix.join(here, 'schemas', parts.at(-1)!) : ''];
  let outside = false;
  for (const c of candidates) {
    if (!c) continue;
    const normal = posix.normalize(c);
    if (normal.startsWith('../') || normal === '..') {
      outside = true;
      continue;
    }
    if (files.exists(normal)) return normal.split('/').join(sep);
  }
  throw new Error(outside ? `body names ${JSON.stringify(body)}, which is outside the directory` : `body names ${JSON.stringify(body)}, which is not a file in the directory`);
}

// ---- export ----

/**
 * `cms item export --layout dc-cli`: the selected items (with --with-deps what they link to) in
 * that CLI's layout. Names are assigned once all items are read, so they do not depend on the
 * order pages arrive: a file already holding an item in the right directory keeps its name (git
 * diffs stay small), new items take the next free name in order of creation. An item that moved
 * loses its old file; files of items not selected are left alone, as that CLI leaves them.
 */
export async function exportDcCli(client: ApiClient, opts: ExportOptions, imported: ReadonlyMap<string, string> = new Map()): Promise<ExportSummary> {
  const started = Date.now();
  const repos = await hubRepositories(client, opts.hubId);
  const selected = opts.repoIds.length ? opts.repoIds : [...repos.keys()];
  const folders = (await Promise.all(selected.map((id) => folderTree(client, id)))).flat();
  if (opts.folderId && !folders.some((f) => f.id === opts.folderId)) throw new NotFound(`No folder ${opts.folderId} in the ${opts.repoIds.length ? 'selected repositories' : 'hub'}`);
  const files = dcCliExportDir(opts.dir);
  const items = new Map<string, PlainItem & Record<string, unknown>>();
  const closure = opts.withDeps ? new LinkClosure() : null;
  let total = 0;
  opts.progress.start(null, 'export');
  const onItem = (item: PlainItem) => {
    if (items.has(item.id) || !repos.has(item.contentRepositoryId)) return;
    items.set(checkedId(item.id), item as PlainItem & Record<string, unknown>);
    closure?.add(item);
    opts.progress.step({ key: item.id, action: 'export', ok: true, id: item.id });
  };
  await readSelection(client, { ...opts, repoIds: selected }, folders, { ...opts, onTotal: (n) => opts.progress.total((total += n)), onItem });
  const selectedCount = items.size;
  const missing: string[] = [];
  for (let ids = closure?.take() ?? []; ids.length; ids = closure!.take()) {
    for (const id of ids) {
      const item = isSafeId(id) ? await fetchItem(client, id) : undefined;
      if (item && repos.has(item.contentRepositoryId)) onItem(item);
      else missing.push(id);
    }
  }
  const extra = [...new Set([...items.values()].map((i) => i.contentRepositoryId))].filter((id) => !selected.includes(id));
  const allFolders = [...folders, ...(await Promise.all(extra.map((id) => folderTree(client, id)))).flat()];
  const folderById = new Map(allFolders.map((f) => [f.id, f]));
  const dirOf = (item: PlainItem): string => {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let f = item.folderId ? folderById.get(item.folderId) : undefined; f && !seen.has(f.id); f = f.parentId ? folderById.get(f.parentId) : undefined) {
      seen.add(f.id);
      names.unshift(fileSafeName(f.name));
    }
    return join(fileSafeName(repos.get(item.contentRepositoryId)!.label || repos.get(item.contentRepositoryId)!.name), ...names);
  };

  // Names: kept where the item already is, then new ones in order of creation.
  const previous = existingItemFiles(files, imported);
  const taken = new Map<string, Set<string>>();
  const take = (dir: string, name: string) => (taken.get(dir) ?? taken.set(dir, new Set()).get(dir)!).add(name.toLowerCase());
  // Every file there stays taken: a new item never overwrites a file it does not own.
  for (const file of files.jsonFiles()) if (![...previous.values()].includes(file)) take(dirname(file), basename(file));
  const chosen = new Map<string, string>();
  const ordered = [...items.values()].sort((a, b) => String(a.createdDate ?? '').localeCompare(String(b.createdDate ?? '')) || a.id.localeCompare(b.id));
  for (const item of ordered) {
    const before = previous.get(item.id);
    if (before && dirname(before) === dirOf(item)) {
      chosen.set(item.id, before);
      take(dirname(before), basename(before));
    }
  }
  for (const item of ordered) {
    if (chosen.has(item.id)) continue;
    const dir = dirOf(item);
    const base = fileSafeName(item.label);
    let name = `${base}.json`;
    for (let n = 1; taken.get(dir)?.has(name.toLowerCase()); n++) name = `${base}-${n}.json`;
    take(dir, name);
    chosen.set(item.id, join(dir, name));
  }
  let written = 0;
  let unchanged = 0;
  let removed = 0;
  for (const item of ordered) {
    const file = chosen.get(item.id)!;
    const { _links: _l, ...resource } = item;
    const text = JSON.stringify(resource, null, 2);
    if (files.isRegularFile(file) && files.readText(file) === text) unchanged++;
    else {
      files.writeFile(file, text);
      written++;
    }
    const before = previous.get(item.id);
    if (before && before !== file) {
      files.remove(before);
      removed++;
    }
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    dir: opts.dir,
    items: items.size,
    written,
    unchanged,
    removed,
    dependencies: items.size - selectedCount,
    repositories: new Set([...items.values()].map((i) => i.contentRepositoryId)).size,
    folders: allFolders.length,
    types: 0,
    schemas: 0,
    missingLinks: missing.length,
    seconds: Math.round(seconds * 10) / 10,
    itemsPerSecond: Math.round(items.size / Math.max(seconds, 0.001)),
  };
}

/**
 * The directory a dc-cli export writes: created when missing, taken when empty (dot files aside)
 * or holding only directories and JSON files (an earlier export in that layout); a cms export or
 * anything else is refused and left alone.
 */
function dcCliExportDir(dir: string): SafeDir {
  mkdirSync(dir, { recursive: true });
  const files = new SafeDir(dir);
  const entries = readdirSync(files.real, { withFileTypes: true }).filter((e) => !e.name.startsWith('.'));
  if (entries.some((e) => e.name === MANIFEST) || entries.some((e) => !e.isDirectory() && !e.name.endsWith('.json'))) {
    throw new UsageError(`${dir} is not empty and not a dc-cli content export; nothing was written`, 'Export into an empty or new directory, or into an earlier export in the dc-cli layout.');
  }
  return files;
}

/**
 * Item id -> file of an earlier export in the directory (files that are not items are skipped).
 * A file holding an item imported into this hub (source id -> target id) is the target item's.
 */
function existingItemFiles(files: SafeDir, imported: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files.jsonFiles()) {
    try {
      const raw = files.readJson(file);
      if (!isObject(raw) || !isSafeId(raw.id) || !isObject(raw.body)) continue;
      const id = imported.get(raw.id) ?? raw.id;
      if (!out.has(id)) out.set(id, file);
    } catch {
      // Not one of ours: left alone, and its name stays taken only if an item lands on it.
    }
  }
  return out;
}
