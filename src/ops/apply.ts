import { join, resolve } from 'node:path';
import type { Context } from '../cli/context.js';
import type { OptionSpec } from '../cli/define.js';
import type { ApiClient } from '../core/client.js';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { failing, text, type Output } from '../output/result.js';
import { BulkRun, type RunFlags } from './runs/bulk-run.js';
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
import { MemoryMapping } from './files/mapping.js';
import { FileProblem, SafeDir, parseJson } from './files/safe-files.js';
import { schemaBodyFile } from './dc-cli-layout.js';
import { Syncer, type SyncedStep } from './runs/reconcile.js';
import { countActions, countLine, failureLines, stepLines, tsv } from './runs/run-report.js';
import { reportToGitHub } from './runs/github-actions.js';

// `cms schema apply <dir>` and `cms type apply <dir>`: the content model kept as files (in git)
// and applied declaratively. Every *.json file under <dir> (recursively, dot files skipped) is one
// resource:
//
//   schema file: the JSON Schema document itself (its `id` is the schema id; validation level
//                CONTENT_TYPE), or {schemaId, validationLevel?, status?, body} where body is the
//                document (an object or its text) and validationLevel CONTENT_TYPE|SLOT|PARTIAL
//   type file:   {contentTypeUri, settings: {label, icons?, visualizations?, cards?}, status?,
//                repositories?: [repository names]}; without `repositories` assignments are left
//                as they are, with it the type is assigned to exactly those repositories
//
// Each file's resource is created, updated (the differences shown) or left unchanged; --prune
// archives what the hub has and the files do not. `cms item export` writes types/ and schemas/
// directories in these formats.

export type ApplyKind = 'schema' | 'type';

export const applyOptions: OptionSpec[] = [
  { flags: '--prune', description: 'archive what the hub has (active) and the files do not' },
  { flags: '--exit-code', description: 'exit 1 when the hub differed from the files (0 when in sync); with --dry-run a drift check' },
];

export interface ApplyFlags extends RunFlags {
  hub?: string;
  prune?: boolean;
  exitCode?: boolean;
}

/** What defines an apply run: saved in its journal, reused by --resume. */
interface ApplyOptions {
  dir: string;
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

/** The whole of `cms schema apply` / `cms type apply` (new or resumed): plan, apply, summary. */
export async function runApply(ctx: Context, kind: ApplyKind, dir: string | undefined, flags: ApplyFlags): Promise<Output> {
  const client = await ctx.client();
  const options = (BulkRun.resumedOptions(ctx, flags.resume, `${kind} apply`, { dir }) as ApplyOptions | undefined) ?? (await newOptions(ctx, client, kind, dir, flags));
  const files = kind === 'schema' ? readSchemaFiles(options.dir) : readTypeFiles(options.dir);
  const connection = ctx.connection();
  const run = await BulkRun.begin(ctx, flags, { command: `${kind} apply`, options: { ...options }, target: { apiUrl: connection.apiUrl, profile: connection.profile, hubId: options.hubId } });
  // The summary counts the steps (created, updated, ...): the run's own counts would say it twice.
  run.countsInSummary = false;
  if (run.dryRun) client.readOnly = true;
  // Each definition's file, by the key of its step: failures and drift name the file at fault.
  const fileByKey = new Map<string, string>(files.map((f) => [kind === 'schema' ? `schema:${(f as SchemaFile).schemaId}` : `type:${(f as TypeFile).contentTypeUri}`, join(options.dir, f.file)]));
  run.fileOfKey = (key) => fileByKey.get(key);
  const sync = new Syncer(run, new MemoryMapping(), ctx.signal);
  const work = kind === 'schema' ? () => applySchemas(sync, client, options, files as SchemaFile[]) : () => applyTypes(sync, client, options, files as TypeFile[]);
  const out = await run.execute(async () => {
    await work();
    return applySummary(sync);
  });
  return withDriftCheck(ctx, run, sync, kind, options, out, flags.exitCode);
}

async function newOptions(ctx: Context, client: ApiClient, kind: ApplyKind, dir: string | undefined, flags: ApplyFlags): Promise<ApplyOptions> {
  if (!dir) throw new UsageError(`Name the directory of ${kind} files: cms ${kind} apply <dir>`, 'Or continue an interrupted run with --resume <run-id> (see cms runs).');
  return { dir: resolve(dir), hubId: await ctx.hubId(flags.hub, client), prune: Boolean(flags.prune) };
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

async function applySchemas(sync: Syncer, client: ApiClient, options: ApplyOptions, files: SchemaFile[]): Promise<void> {
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

async function applyTypes(sync: Syncer, client: ApiClient, options: ApplyOptions, files: TypeFile[]): Promise<void> {
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

// ---- the summary ----

/** Steps that bring the hub to the files: everything but `unchanged`. */
const changesOf = (steps: readonly SyncedStep[]) => steps.filter((s) => s.action !== 'unchanged');

function applySummary(sync: Syncer): Record<string, unknown> {
  const counts = countActions(sync.steps);
  return {
    created: counts.create ?? 0,
    updated: counts.update ?? 0,
    unchanged: counts.unchanged ?? 0,
    archived: counts.archive ?? 0,
    drift: changesOf(sync.steps).length > 0,
    steps: sync.steps.map(({ action, resource, label, targetId, changes, resumed }) => ({ action, resource, label, targetId, ...(changes ? { changes } : {}), ...(resumed ? { resumed } : {}) })),
  };
}

/** The summary as text (table output), and with --exit-code exit 1 when the hub differed from the files. */
function withDriftCheck(ctx: Context, run: BulkRun, sync: Syncer, kind: ApplyKind, options: ApplyOptions, out: Output, exitCode?: boolean): Output {
  const drift = changesOf(sync.steps).length;
  let result = out;
  if (out.kind === 'text') result = { ...text(ctx.io.isTTY ? renderApply(run, sync, kind, options) : pipedApply(sync)), failure: out.failure };
  if (!exitCode || !drift || result.failure) return result;
  const message = `The hub differs from ${options.dir}: ${drift} change(s) ${run.dryRun ? 'to apply' : 'applied'}`;
  reportToGitHub(
    ctx.io,
    ctx.env,
    `cms ${kind} apply: the hub differs from the files (${drift} change(s))`,
    changesOf(sync.steps).map((s) => ({
      file: run.fileOfKey?.(s.key),
      title: `${kind} drift: ${s.action} ${s.resource}`,
      message: `${s.label}: ${run.dryRun ? 'would be' : 'was'} ${PAST[s.action] ?? s.action}${s.changes?.length ? `\n${s.changes.slice(0, 20).join('\n')}` : ''}`,
    })),
  );
  return failing(result, new CliError(message, ExitCode.FAILURE, undefined, 'DRIFT'));
}

const PAST: Record<string, string> = { create: 'created', update: 'updated', archive: 'archived' };

/** Piped: a row per step (action, resource, label, its differences joined by '; '), no header, like every piped table. */
function pipedApply(sync: Syncer): string {
  return tsv(sync.steps.map((s) => [s.action, s.resource, s.resumed ? `${s.label} (done before the resume)` : s.label, (s.changes ?? []).join('; ')]));
}

function renderApply(run: BulkRun, sync: Syncer, kind: ApplyKind, options: ApplyOptions): string {
  const head = run.dryRun ? `Dry run of cms ${kind} apply ${options.dir}: nothing was changed.` : `Run ${run.id} (cms ${kind} apply ${options.dir}): ${run.journal?.meta.status ?? 'completed'}`;
  const rows = sync.steps.map((s) => ({ ...s, label: s.resumed ? `${s.label} (done before the resume)` : s.label }));
  const lines = [head, '', ...stepLines(rows), '', `${run.dryRun ? 'Plan' : 'Result'}: ${countLine(countActions(sync.steps))}${run.failures.length ? `, ${run.failures.length} failed` : ''}`];
  for (const line of failureLines(run.failures)) lines.push(line);
  return `${lines.join('\n')}\n`;
}
