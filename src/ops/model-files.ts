import { join } from 'node:path';
import type { ApiClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import {
  hubRepositoryList,
  hubSchemas,
  hubTypes,
  contentChanged,
  referencesFirst,
  syncCachedSchema,
  syncSchema,
  syncType,
  type HubRepository,
  type HubSchema,
  type HubType,
  type Status,
  type WantedSchema,
  type WantedType,
} from './content-model.js';
import { FileProblem, SafeDir, parseJson } from './files/safe-files.js';
import { schemaBodyFile } from './dc-cli-layout.js';
import type { Syncer } from './runs/reconcile.js';

// The content model as files (`cms schema apply`, `cms type apply`, a sandbox seeded from an
// export directory): read and checked, then applied to a hub through the syncer. The command
// around it (journal, summary, drift check) is apply.ts; this file needs none of the CLI.

/** Where the files are applied: the hub, and whether what the files lack is archived. */
export interface ApplyTarget {
  hubId: string;
  prune: boolean;
}

export interface SchemaFile extends WantedSchema {
  file: string;
}

export interface TypeFile extends WantedType {
  file: string;
  repositories?: string[];
}

const LEVELS = ['CONTENT_TYPE', 'SLOT', 'PARTIAL'];
const STATUSES = ['ACTIVE', 'ARCHIVED'];


export type ApplyKind = 'schema' | 'type';

/** Each definition's file, by the key of its step: failures and drift name the file at fault. */
export function fileOfStep(kind: ApplyKind, dir: string, files: (SchemaFile | TypeFile)[]): (key: string) => string | undefined {
  const byKey = new Map<string, string>(files.map((f) => [kind === 'schema' ? `schema:${(f as SchemaFile).schemaId}` : `type:${(f as TypeFile).contentTypeUri}`, join(dir, f.file)]));
  return (key) => byKey.get(key);
}

// ---- files ----

/** Reads every file, or fails before any change naming each file that is not valid. */
function readAll<T extends { file: string }>(dir: string, what: string, parse: (raw: unknown) => Omit<T, 'file'>, identity: (t: T) => string, linked?: (files: SafeDir, raw: Map<string, unknown>) => LinkedFiles): T[] {
  const problems: string[] = [];
  const out: T[] = [];
  const files = new SafeDir(dir);
  let names: string[];
  try {
    names = files.jsonFiles();
  } catch (err) {
    throw err instanceof FileProblem ? err : new UsageError(`Cannot read ${dir}: ${(err as Error).message}`);
  }
  const problem = (file: string, err: unknown) => problems.push(`${file}: ${err instanceof FileProblem && err.file === files.path(file) ? err.problem : (err as Error).message}`);
  const raw = new Map<string, unknown>();
  for (const file of names) {
    try {
      raw.set(file, files.readJson(file));
    } catch (err) {
      problem(file, err);
    }
  }
  const link = linked?.(files, raw) ?? { documents: new Set<string>(), problems: new Map<string, unknown>() };
  for (const [file, err] of link.problems) problem(file, err);
  for (const [file, value] of raw) {
    if (link.documents.has(file) || link.problems.has(file)) continue;
    try {
      out.push({ ...parse(value), file } as T);
    } catch (err) {
      problem(file, err);
    }
  }
  const seen = new Map<string, string>();
  for (const t of out) {
    const id = identity(t);
    if (seen.has(id)) problems.push(`${t.file}: ${id} is also in ${seen.get(id)}`);
    seen.set(id, t.file);
  }
  if (problems.length) throw new UsageError(`${problems.length} ${what} file(s) in ${dir} are not valid; nothing was applied:\n  ${problems.sort().join('\n  ')}`);
  if (!out.length) throw new UsageError(`No ${what} files (*.json) in ${dir}`);
  return out;
}

/** Files other files name (a schema document beside its definition), and the definitions that name none usable. */
interface LinkedFiles {
  documents: Set<string>;
  problems: Map<string, unknown>;
}

/**
 * Schema definitions whose body names a file (the hosted service CLI's export layout, e.g.
 * `"body": "./schemas/video.json"`) get that file's text as body; the named file is the
 * definition's document, not a schema file of its own.
 */
function schemaDocuments(files: SafeDir, raw: Map<string, unknown>): LinkedFiles {
  const documents = new Set<string>();
  const problems = new Map<string, unknown>();
  for (const [file, value] of raw) {
    if (!isObject(value) || typeof value.schemaId !== 'string' || typeof value.body !== 'string' || /^\s*[[{]/.test(value.body)) continue;
    try {
      const document = schemaBodyFile(files, file, value.body.trim());
      raw.set(file, { ...value, body: files.readText(document) });
      documents.add(document);
    } catch (err) {
      problems.set(file, err);
    }
  }
  return { documents, problems };
}

export function readSchemaFiles(dir: string): SchemaFile[] {
  return readAll<SchemaFile>(dir, 'schema', parseSchemaFile, (s) => s.schemaId, schemaDocuments);
}

export function readTypeFiles(dir: string): TypeFile[] {
  return readAll<TypeFile>(dir, 'type', parseTypeFile, (t) => t.contentTypeUri);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function parseSchemaFile(raw: unknown): WantedSchema {
  if (!isObject(raw)) throw new Error('must hold a JSON object');
  const wrapped = typeof raw.schemaId === 'string' && 'body' in raw;
  const document = wrapped ? (typeof raw.body === 'string' ? parseJson(raw.body, 'its body') : raw.body) : raw;
  if (!isObject(document)) throw new Error('body must be the JSON Schema document');
  // A draft-07 document names itself with $id, the service dialect with id.
  const draft07 = typeof document.$schema === 'string' && /json-schema\.org\/draft-07\//.test(document.$schema);
  const schemaId = wrapped ? (raw.schemaId as string) : draft07 ? (document.$id ?? document.id) : (document.id ?? document.$id);
  if (typeof schemaId !== 'string') throw new Error('has no schema id: give the document an id, or use {schemaId, body}');
  return { schemaId, document, validationLevel: oneOf(wrapped ? raw.validationLevel : undefined, LEVELS, 'validationLevel', 'CONTENT_TYPE'), status: oneOf(wrapped ? raw.status : undefined, STATUSES, 'status', 'ACTIVE') as Status };
}

function parseTypeFile(raw: unknown): Omit<TypeFile, 'file'> {
  if (!isObject(raw)) throw new Error('must hold a JSON object');
  if (typeof raw.contentTypeUri !== 'string') throw new Error('needs contentTypeUri (the schema id URL)');
  if (!isObject(raw.settings) || typeof raw.settings.label !== 'string' || !raw.settings.label) throw new Error('needs settings.label');
  const repos = raw.repositories;
  if (repos !== undefined && !(Array.isArray(repos) && repos.every((r) => typeof r === 'string'))) throw new Error('repositories must be a list of repository names');
  return { contentTypeUri: raw.contentTypeUri, settings: raw.settings, status: oneOf(raw.status, STATUSES, 'status', 'ACTIVE') as Status, repositories: repos as string[] | undefined };
}

function oneOf(value: unknown, allowed: string[], field: string, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new Error(`${field} must be one of ${allowed.join(', ')}`);
  return value;
}

// ---- applying ----

export async function applySchemas(sync: Syncer, client: ApiClient, options: ApplyTarget, files: SchemaFile[]): Promise<void> {
  const have = await hubSchemas(client, options.hubId);
  const types = await hubTypes(client, options.hubId);
  const stale = options.prune ? have.filter((s) => s.status === 'ACTIVE' && !files.some((f) => f.schemaId === s.schemaId)) : [];
  sync.run.progress.start(files.length + stale.length, sync.dryRun ? 'plan schemas' : 'apply schemas');
  const ordered = referencesFirst(files.map((f) => ({ ...f, text: JSON.stringify(f.document) })));
  for (const want of ordered) {
    const existing = have.find((s) => s.schemaId === want.schemaId);
    const id = await syncSchema(sync, client, options.hubId, want, existing, { key: `schema:${want.schemaId}`, label: `${want.schemaId} (${want.file})` });
    if (id && existing && contentChanged(existing, want)) {
      // Content types validate against their cached copy: refreshed to the new version.
      for (const type of types.filter((t) => t.contentTypeUri === want.schemaId && t.status === 'ACTIVE')) await syncCachedSchema(sync, client, type);
    }
  }
  for (const schema of stale) await archiveSchema(sync, client, schema);
}

function archiveSchema(sync: Syncer, client: ApiClient, schema: HubSchema): Promise<string | undefined> {
  const spec = { key: `archive:${schema.schemaId}`, resource: 'schema', action: 'archive' as const, targetId: schema.id, version: schema.version, before: { version: schema.version, status: schema.status }, label: `${schema.schemaId} (not in the files)` };
  return sync.act(spec, () => client.post(`/content-type-schemas/${schema.id}/archive`, { version: schema.version }));
}

export async function applyTypes(sync: Syncer, client: ApiClient, options: ApplyTarget, files: TypeFile[]): Promise<void> {
  const have = await hubTypes(client, options.hubId);
  const repos = await hubRepositoryList(client, options.hubId);
  checkRepositoryNames(files, repos);
  const stale = options.prune ? have.filter((t) => t.status === 'ACTIVE' && !files.some((f) => f.contentTypeUri === t.contentTypeUri)) : [];
  sync.run.progress.start(files.length + stale.length, sync.dryRun ? 'plan types' : 'apply types');
  for (const want of files) {
    const existing = have.find((t) => t.contentTypeUri === want.contentTypeUri);
    const assignments = want.repositories ? { wanted: repos.filter((r) => want.repositories!.includes(r.name)), repos, prune: true } : undefined;
    await syncType(sync, client, options.hubId, want, existing, { key: `type:${want.contentTypeUri}`, label: `${want.contentTypeUri} (${want.file})` }, assignments);
  }
  for (const type of stale) await archiveType(sync, client, type);
}

/** A repository name no repository has is a mistake in the files: nothing is applied. */
function checkRepositoryNames(files: TypeFile[], repos: HubRepository[]): void {
  const unknown = files.flatMap((f) => (f.repositories ?? []).filter((name) => !repos.some((r) => r.name === name)).map((name) => `${f.file}: no repository named '${name}'`));
  if (unknown.length) throw new UsageError(`The files name repositories the hub does not have; nothing was applied:\n  ${unknown.join('\n  ')}`, repos.length ? `Repositories: ${repos.map((r) => r.name).join(', ')}` : 'Create them with `cms repo create`.');
}

function archiveType(sync: Syncer, client: ApiClient, type: HubType): Promise<string | undefined> {
  const spec = { key: `archive:${type.contentTypeUri}`, resource: 'type', action: 'archive' as const, targetId: type.id, before: { settings: type.settings, status: type.status }, label: `${type.contentTypeUri} (not in the files)` };
  return sync.act(spec, () => client.post(`/content-types/${type.id}/archive`, {}));
}
