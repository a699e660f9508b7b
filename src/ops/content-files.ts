import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

// The layout of an export directory, shared by `cms item export` (writes it) and
// `cms item import` (reads it):
//
//   <dir>/manifest.json                  source, repositories, folders, types, schemas, counts
//   <dir>/items/<repository>/<id>.json    one plain item per file
//   <dir>/types/<slug>.json              {contentTypeUri, settings}: `cms type register --body-file`
//   <dir>/schemas/<slug>.json            the JSON Schema document: `cms schema create --file`
//   <dir>/.index.json                    item id -> [file, content hash]: unchanged items are not rewritten

export const MANIFEST = 'manifest.json';
export const INDEX = '.index.json';
export const FORMAT = 'cms-export/1';

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

export const itemPath = (repoName: string, id: string) => join('items', slug(repoName), `${id}.json`);
export const typePath = (uri: string) => join('types', `${slug(uri)}.json`);
export const schemaPath = (uri: string) => join('schemas', `${slug(uri)}.json`);

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

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** Writes unless the file already holds exactly this text; says whether it wrote. */
export function writeIfChanged(path: string, text: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeAtomic(path, text);
  return true;
}

export function ensureDir(path: string): void {
  mkdirSync(path, { recursive: true });
}

export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) throw new UsageError(`${dir} is not an export: it has no ${MANIFEST}`, 'Create one with `cms item export <dir>`.');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new UsageError(`${path} is not a ${FORMAT} manifest (format ${String(manifest.format)})`);
  return manifest;
}

/** Every item file of an export, as paths relative to its directory. */
export function itemFiles(dir: string): string[] {
  const root = join(dir, 'items');
  if (!existsSync(root)) return [];
  const files: string[] = [];
  for (const repo of readdirSync(root, { withFileTypes: true })) {
    if (!repo.isDirectory()) continue;
    for (const name of readdirSync(join(root, repo.name))) if (name.endsWith('.json')) files.push(join('items', repo.name, name));
  }
  return files.sort();
}

export function readItemFile(dir: string, file: string): PlainItem {
  const item = JSON.parse(readFileSync(join(dir, file), 'utf8')) as PlainItem;
  if (typeof item?.id !== 'string' || typeof item.body?._meta?.schema !== 'string') throw new UsageError(`${join(dir, file)} is not an exported item (it needs id and body._meta.schema)`);
  return item;
}
