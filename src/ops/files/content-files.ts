import { createHash } from 'node:crypto';
import { join, sep } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { FileProblem, SafeDir, isSafeId, type SkippedFiles } from './safe-files.js';

// The layout of an export directory, shared by `cms item export` (writes it) and
// `cms item import` (reads it):
//
//   <dir>/manifest.json                  source, repositories, folders, types, schemas, counts
//   <dir>/items/<repository>/<id>.json    one plain item per file
//   <dir>/types/<slug>-<hash>.json       {contentTypeUri, settings}: `cms type register --body-file`
//   <dir>/schemas/<slug>-<hash>.json     the JSON Schema document: `cms schema create --file`
//   <dir>/.index.json                    item id -> [file, content hash]: unchanged items are not rewritten

export const MANIFEST = 'manifest.json';
export const INDEX = '.index.json';
export const FORMAT = 'cms-export/1';
/** Written first into a new export's directory, removed once its manifest is: an export that did not finish. */
export const IN_PROGRESS = '.cms-export-in-progress';

/** An item as an export holds it: what a target needs to recreate it, nothing the service derives. */
export interface PlainItem {
  id: string;
  label: string;
  body: Record<string, unknown> & { _meta: { schema: string; deliveryKey?: string | null; [k: string]: unknown } };
  locale: string | null;
  folderId: string | null;
  deliveryKey: string | null;
  version: number;
  status: 'ACTIVE' | 'ARCHIVED';
  contentRepositoryId: string;
}

export interface RepositoryInfo {
  id: string;
  name: string;
  label: string;
  itemLocales: string[];
  features: string[];
}

export interface FolderInfo {
  id: string;
  name: string;
  parentId: string | null;
  repository: string;
}

export interface TypeInfo {
  contentTypeUri: string;
  label: string;
  status: string;
  file: string;
}

export interface SchemaInfo {
  schemaId: string;
  validationLevel: string;
  version: number;
  file: string;
}

export interface Manifest {
  format: typeof FORMAT;
  source: { apiUrl: string; hubId: string; hubName: string };
  selection: Record<string, unknown>;
  repositories: RepositoryInfo[];
  folders: FolderInfo[];
  types: TypeInfo[];
  schemas: SchemaInfo[];
  counts: { items: number; byRepository: Record<string, number>; dependencies: number };
  /** Links that name items the source could not return (dangling in the source). */
  missingLinks?: string[];
}

export function plainItem(item: PlainItem): PlainItem {
  const { id, label, body, locale, folderId, deliveryKey, version, status, contentRepositoryId } = item;
  return { id, label, body, locale: locale ?? null, folderId: folderId ?? null, deliveryKey: deliveryKey ?? null, version, status, contentRepositoryId };
}

/** A file-name-safe form of a repository name or a schema URI. */
export function slug(value: string): string {
  const s = value
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\.json$/i, '')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+|_+$/g, '');
  return s.slice(0, 120) || '_';
}

/**
 * The file name of a type or schema: a readable slug plus a hash of the exact URI, so URIs that
 * slug alike (`https://ex.com/a/b.json`, `http://ex.com/a_b`, case variants, long ones) never share
 * a file, even on a case-insensitive file system, and a URI always gets the same name.
 */
export function modelFileName(uri: string): string {
  return `${slug(uri).slice(0, 80)}-${createHash('sha256').update(uri).digest('hex').slice(0, 12)}.json`;
}

export const itemPath = (repoName: string, id: string) => join('items', slug(repoName), `${id}.json`);
export const typePath = (uri: string) => join('types', modelFileName(uri));
export const schemaPath = (uri: string) => join('schemas', modelFileName(uri));

/** A folder's path of names, each escaped so a name holding `/` never reads as two folders. */
export function folderPath(byId: Map<string, FolderInfo>, id: string): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let f = byId.get(id); f && !seen.has(f.id); f = f.parentId ? byId.get(f.parentId) : undefined) {
    seen.add(f.id);
    names.unshift(f.name.replace(/%/g, '%25').replace(/\//g, '%2F'));
  }
  return names.join('/');
}

/** Folders an import can recreate: each named, with an id, and no parent cycle. The first problem found. */
export function folderProblem(folders: unknown): string | undefined {
  if (!Array.isArray(folders)) return 'folders must be a list';
  const byId = new Map<string, FolderInfo>();
  for (const [i, f] of folders.entries()) {
    const where = `folders[${i}]`;
    if (!f || typeof f !== 'object' || typeof f.id !== 'string' || !f.id) return `${where} has no id`;
    if (typeof f.name !== 'string' || !f.name.trim()) return `${where} (${JSON.stringify(f.id)}) has an empty name`;
    // A folder name is shown in every listing: one that would drive a terminal is not created.
    if (/[\x00-\x1f\x7f-\x9f]/.test(f.name)) return `${where} (${JSON.stringify(f.id)}) has a name with control characters: ${JSON.stringify(f.name)}`;
    if (f.parentId !== null && f.parentId !== undefined && typeof f.parentId !== 'string') return `${where} (${JSON.stringify(f.id)}) has a parentId that is not an id`;
    byId.set(f.id, f as FolderInfo);
  }
  for (const f of byId.values()) {
    const seen = new Set<string>();
    for (let at: FolderInfo | undefined = f; at; at = at.parentId ? byId.get(at.parentId) : undefined) {
      if (seen.has(at.id)) return `folder ${JSON.stringify(f.id)} is in a cycle of parent folders`;
      seen.add(at.id);
    }
  }
  return undefined;
}

/** JSON with object keys sorted: equal values give equal text, whatever order the service used. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export function fileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Whether the directory is marked as an export in progress (IN_PROGRESS, a regular file naming this format). */
export function exportInProgress(files: SafeDir): boolean {
  try {
    return files.isRegularFile(IN_PROGRESS) && (files.readJson(IN_PROGRESS) as { format?: unknown })?.format === FORMAT;
  } catch {
    return false;
  }
}

export function readManifest(dir: string): Manifest {
  const files = new SafeDir(dir);
  const path = files.path(MANIFEST);
  if (!files.exists(MANIFEST)) {
    if (exportInProgress(files)) throw new UsageError(`${dir} is an export that did not finish (it was stopped before writing its ${MANIFEST})`, 'Run the same `cms item export` into it again: it finishes it.');
    throw new UsageError(`${dir} is not an export: it has no ${MANIFEST}`, 'Create one with `cms item export <dir>`.');
  }
  const manifest = files.readJson(MANIFEST) as Manifest;
  if (!manifest || typeof manifest !== 'object' || manifest.format !== FORMAT) throw new UsageError(`${path} is not a ${FORMAT} manifest`);
  const problem = manifestProblem(manifest);
  if (problem) throw new FileProblem(path, `is not a valid manifest: ${problem}`);
  return manifest;
}

function manifestProblem(m: Manifest): string | undefined {
  const named = (list: unknown) => Array.isArray(list) && list.every((r) => r && typeof r === 'object' && typeof r.id === 'string' && typeof r.name === 'string');
  if (!named(m.repositories)) return 'repositories must be a list of {id, name}';
  m.types ??= [];
  m.schemas ??= [];
  if (!Array.isArray(m.types) || !Array.isArray(m.schemas)) return 'types and schemas must be lists';
  return folderProblem(m.folders);
}

/** Every item file of an export, as paths relative to its directory. */
export function itemFiles(files: SafeDir, skipped?: SkippedFiles): string[] {
  return files.jsonFiles('items', 2, skipped).filter((f) => f.split(sep).length === 3);
}

export function readItemFile(files: SafeDir, file: string): PlainItem {
  const item = files.readJson(file) as PlainItem;
  if (!isSafeId(item?.id) || typeof item.body?._meta?.schema !== 'string') throw new FileProblem(files.path(file), 'is not an exported item (it needs an id and body._meta.schema)');
  return item;
}
