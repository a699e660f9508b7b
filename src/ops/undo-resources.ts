import type { ApiClient } from '../core/client.js';
import { ApiError, CliError } from '../core/errors.js';
import type { BulkRun } from './runs/bulk-run.js';
import { parseDocument, schemaChanges, updateSchema, updateType, type HubSchema, type HubType, type Status } from './content-model.js';
import type { StepAction, StepEntry } from './runs/journal.js';

// `cms undo` of the resources declarative runs write (schema/type apply, hub clone), beyond the
// items, folders and assignments undo.ts handles itself. Per resource, newest step first: what a
// run created is archived (schemas, types) or deleted (webhooks, extensions, events, editions,
// search indexes); what it updated gets its previous fields back (a schema a new version holding
// its previous document); assignments it made are removed and those it removed made again.
// Workflow states, repositories and snapshots the run created stay: the service cannot delete
// them, or deleting them would lose what others added since.

export interface RevertGroup {
  key: string;
  resource: string;
  targetId: string;
  steps: StepEntry[];
}

export interface RevertDeps {
  client: ApiClient;
  run: BulkRun;
  /** The hub the run wrote to (some paths are under it). */
  hubId?: string;
  /** Whether an earlier (interrupted) undo already reverted this step. */
  isDone(key: string): boolean;
}

/** Paths of the resources whose fields an undo patches back, or which it deletes. */
const PATHS: Record<string, (id: string, hubId?: string) => string> = {
  'hub-settings': (id) => `/hubs/${id}/settings`,
  'workflow-state': (id) => `/workflow-states/${id}`,
  extension: (id) => `/extensions/${id}`,
  event: (id) => `/events/${id}`,
  edition: (id) => `/editions/${id}`,
  webhook: (id, hubId) => `/hubs/${hubId}/webhooks/${id}`,
  'search-index': (id, hubId) => `/hubs/${hubId}/search-indexes/${id}`,
  repository: (id) => `/content-repositories/${id}`,
};
const DELETED_ON_UNDO = new Set(['extension', 'event', 'edition', 'webhook', 'search-index']);

export const REVERTIBLE: ReadonlySet<string> = new Set(['schema', 'type', 'type-assignment', ...Object.keys(PATHS)]);

/** Reverts one resource's steps, newest first, each journaled so a rerun of the undo continues. */
export async function revertResource(g: RevertGroup, deps: RevertDeps): Promise<void> {
  const pending = g.steps.map((step, i) => ({ step, key: `${g.key}:${i}` })).filter(({ key }) => !deps.isDone(key));
  if (!pending.length) return;
  if (g.steps[0]!.action === 'create') {
    await revertCreate(g, deps, `${g.key}:0`);
    return;
  }
  for (const { step, key } of pending.reverse()) await revertStep(g, step, deps, key);
}

async function revertCreate(g: RevertGroup, deps: RevertDeps, key: string): Promise<void> {
  const { client, run } = deps;
  if (g.resource === 'schema') {
    const schema = await current<HubSchema>(client, `/content-type-schemas/${g.targetId}`);
    // Archived already: by this undo before it was killed (its step not journaled), or by anyone; either way done.
    if (schema.status !== 'ACTIVE') return settled(deps, g, key, 'archive');
    checkVersion(schema.version, g.steps);
    await send(deps, g, key, 'archive', () => client.post(`/content-type-schemas/${schema.id}/archive`, { version: schema.version }));
  } else if (g.resource === 'type') {
    const type = await current<HubType>(client, `/content-types/${g.targetId}`);
    if (type.status !== 'ACTIVE') return settled(deps, g, key, 'archive');
    await send(deps, g, key, 'archive', () => client.post(`/content-types/${type.id}/archive`, {}));
  } else if (DELETED_ON_UNDO.has(g.resource)) {
    await send(deps, g, key, 'delete', () => ignoreMissing(client.delete(PATHS[g.resource]!(g.targetId, deps.hubId))));
  } else run.note(`${g.resource} ${g.steps[0]!.label ?? g.targetId} was created by the run and stays (it cannot be removed safely)`);
}

async function revertStep(g: RevertGroup, step: StepEntry, deps: RevertDeps, key: string): Promise<void> {
  const { client } = deps;
  const before = step.before ?? {};
  if (step.action === 'unchanged' || step.action === 'skip') return;
  if (g.resource === 'schema') {
    const schema = await current<HubSchema>(client, `/content-type-schemas/${g.targetId}`);
    const previous = { document: typeof before.body === 'string' ? parseDocument(before.body) : parseDocument(schema.body), validationLevel: (before.validationLevel as string) ?? schema.validationLevel, status: (before.status as Status) ?? schema.status };
    // Already as it was (this undo's own restore, sent before a kill and not journaled): nothing to send.
    if (!schemaChanges(schema, previous).length) return settled(deps, g, key, 'restore');
    checkVersion(schema.version, g.steps);
    await send(deps, g, key, 'restore', () => updateSchema(client, schema, previous));
  } else if (g.resource === 'type') {
    const type = await current<HubType>(client, `/content-types/${g.targetId}`);
    const previous = { settings: (before.settings as Record<string, unknown>) ?? type.settings, status: (before.status as Status) ?? type.status };
    await send(deps, g, key, 'restore', () => updateType(client, type, previous));
  } else if (g.resource === 'type-assignment') {
    const path = `/content-repositories/${before.repositoryId as string}/content-types`;
    const again = step.action === 'assign' ? () => ignoreMissing(client.delete(`${path}/${g.targetId}`)) : () => client.post(path, { contentTypeId: g.targetId });
    await send(deps, g, key, step.action === 'assign' ? 'unassign' : 'assign', again);
  } else if (step.action === 'update' && PATHS[g.resource] && Object.keys(before).length) {
    await send(deps, g, key, 'restore', () => client.patch(PATHS[g.resource]!(g.targetId, deps.hubId), before));
  }
}

/** A step found reverted already: journaled as done, nothing sent. */
function settled(deps: RevertDeps, g: RevertGroup, key: string, action: StepAction): void {
  deps.run.record({ key, action, resource: g.resource, targetId: g.targetId, label: g.steps[0]!.label }, { tick: true });
}

/** One reverting request (none in a dry run), journaled. */
async function send(deps: RevertDeps, g: RevertGroup, key: string, action: StepAction, request: () => Promise<unknown>): Promise<void> {
  if (!deps.run.dryRun) await request();
  deps.run.record({ key, action, resource: g.resource, targetId: g.targetId, label: g.steps[0]!.label }, { tick: true });
}

async function current<T>(client: ApiClient, path: string): Promise<T> {
  try {
    return await client.get<T>(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw new CliError('no longer exists');
    throw err;
  }
}

/** A schema whose version moved on since the run was changed by someone else: left alone. */
function checkVersion(version: number, steps: StepEntry[]): void {
  const left = [...steps].reverse().find((s) => s.version !== undefined)?.version;
  if (left !== undefined && version !== left) throw new CliError(`changed since the run: now version ${version}, the run left version ${left}`);
}

async function ignoreMissing(request: Promise<unknown>): Promise<void> {
  try {
    await request;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}
