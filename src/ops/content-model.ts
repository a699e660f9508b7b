import type { ApiClient } from '../core/client.js';
import { diff, setDiff, type FieldChange } from './runs/diff.js';
import { collect } from './export.js';
import type { Syncer, Written } from './runs/reconcile.js';

// Schemas, content types and their repository assignments written declaratively: the wanted
// state of each (from files for `schema apply` / `type apply`, from a source hub for `hub clone`)
// is compared with the hub's and made so. One place for both commands.

export type Status = 'ACTIVE' | 'ARCHIVED';

export interface WantedSchema {
  schemaId: string;
  document: Record<string, unknown>;
  validationLevel: string;
  status: Status;
}

export interface HubSchema {
  id: string;
  schemaId: string;
  /** The JSON Schema document as a string. */
  body: string;
  version: number;
  validationLevel: string;
  status: Status;
}

export interface WantedType {
  contentTypeUri: string;
  settings: Record<string, unknown>;
  status: Status;
}

export interface HubType {
  id: string;
  contentTypeUri: string;
  settings: Record<string, unknown>;
  status: Status;
}

export interface HubRepository {
  id: string;
  name: string;
  contentTypes?: { hubContentTypeId: string; contentTypeUri: string }[];
}

const ALL = { status: 'ACTIVE,ARCHIVED' };

export const hubSchemas = (client: ApiClient, hubId: string) => collect<HubSchema>(client, `/hubs/${hubId}/content-type-schemas`, 'content-type-schemas', ALL);
export const hubTypes = (client: ApiClient, hubId: string) => collect<HubType>(client, `/hubs/${hubId}/content-types`, 'content-types', ALL);
export const hubRepositoryList = (client: ApiClient, hubId: string) => collect<HubRepository>(client, `/hubs/${hubId}/content-repositories`, 'content-repositories');

export function parseDocument(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { unreadable: body };
  }
}

export function schemaChanges(have: HubSchema, want: Pick<WantedSchema, 'document' | 'validationLevel' | 'status'>): FieldChange[] {
  return [...diff(parseDocument(have.body), want.document, 'body'), ...diff(have.validationLevel, want.validationLevel, 'validationLevel'), ...diff(have.status, want.status, 'status')];
}

/** A new version is due (not just a status change): content types of the schema then need a sync. */
export const contentChanged = (have: HubSchema, want: WantedSchema): boolean => schemaChanges(have, want).some((c) => c.path !== 'status');

/**
 * Schemas that $ref other schemas of the set come after them (the service resolves references
 * late, so any order is accepted; this order reads best in a plan and suits stricter services).
 * Mutual references keep file order between the schemas of the cycle.
 */
export function referencesFirst<T extends { schemaId: string; text: string }>(schemas: T[]): T[] {
  const byId = new Map(schemas.map((s) => [s.schemaId, s]));
  const out: T[] = [];
  const seen = new Set<string>();
  const refsOf = (text: string) => new Set([...text.matchAll(/"\$ref"\s*:\s*"([^"#]*)/g)].map((m) => m[1]!));
  const visit = (s: T) => {
    if (seen.has(s.schemaId)) return;
    seen.add(s.schemaId);
    for (const ref of refsOf(s.text)) {
      const other = byId.get(ref);
      if (other && other !== s) visit(other);
    }
    out.push(s);
  };
  schemas.forEach(visit);
  return out;
}

/** Creates, updates (a new version), archives or unarchives one schema. */
export function syncSchema(sync: Syncer, client: ApiClient, hubId: string, want: WantedSchema, existing: HubSchema | undefined, id: { key: string; sourceId?: string; label?: string }): Promise<string | undefined> {
  return sync.unit<HubSchema>({
    key: id.key,
    resource: 'schema',
    sourceId: id.sourceId,
    label: id.label ?? want.schemaId,
    existing,
    identify: (s) => ({ id: s.id, version: s.version }),
    changes: (s) => schemaChanges(s, want),
    create: () => createSchema(client, hubId, want, sync.idempotencyKey(id.key)),
    update: (s) => updateSchema(client, s, want),
    before: (s) => ({ version: s.version, body: s.body, validationLevel: s.validationLevel, status: s.status }),
  });
}

async function createSchema(client: ApiClient, hubId: string, want: WantedSchema, idempotencyKey?: string): Promise<Written> {
  const body = { schemaId: want.schemaId, body: documentText(want.document), validationLevel: want.validationLevel };
  const made = await client.post<HubSchema>(`/hubs/${hubId}/content-type-schemas`, body, { idempotencyKey });
  return setSchemaStatus(client, made, want.status);
}

/** An archived schema cannot change: it is unarchived for the new version, then archived again if wanted. */
export async function updateSchema(client: ApiClient, have: HubSchema, want: Pick<WantedSchema, 'document' | 'validationLevel' | 'status'>): Promise<Written> {
  let current = have;
  const contentChanged = documentText(parseDocument(have.body)) !== documentText(want.document) || have.validationLevel !== want.validationLevel;
  if (contentChanged) {
    current = await setSchemaStatus(client, current, 'ACTIVE');
    const body = { body: documentText(want.document), validationLevel: want.validationLevel, version: current.version };
    current = await client.patch<HubSchema>(`/content-type-schemas/${current.id}`, body);
  }
  return setSchemaStatus(client, current, want.status);
}

async function setSchemaStatus(client: ApiClient, schema: HubSchema, status: Status): Promise<HubSchema> {
  if (schema.status === status) return schema;
  return client.post<HubSchema>(`/content-type-schemas/${schema.id}/${status === 'ARCHIVED' ? 'archive' : 'unarchive'}`, { version: schema.version });
}

export const documentText = (doc: Record<string, unknown>) => JSON.stringify(doc, null, 2);

export function typeChanges(have: HubType, want: WantedType): FieldChange[] {
  return [...diff(have.settings, want.settings, 'settings'), ...diff(have.status, want.status, 'status')];
}

/** The repositories a type should be assigned to, and whether others lose it. */
export interface WantedAssignments {
  wanted: HubRepository[];
  /** The hub's repositories (with their assigned types). */
  repos: HubRepository[];
  prune: boolean;
}

/** Registers, updates the settings of, archives or unarchives one content type, and its assignments. */
export function syncType(sync: Syncer, client: ApiClient, hubId: string, want: WantedType, existing: HubType | undefined, id: { key: string; sourceId?: string; label?: string }, assignments?: WantedAssignments): Promise<string | undefined> {
  const assign = async (type: HubType) => {
    if (assignments) await syncAssignments(sync, client, type, assignments.wanted, assignments.repos, assignments.prune);
  };
  const assignmentDiff = (type?: HubType) => (assignments ? assignmentChanges(type, assignments.wanted, assignments.repos, assignments.prune) : []);
  return sync.unit<HubType>({
    key: id.key,
    resource: 'type',
    sourceId: id.sourceId,
    label: id.label ?? want.contentTypeUri,
    existing,
    initial: assignmentDiff(),
    identify: (t) => ({ id: t.id }),
    changes: (t) => [...typeChanges(t, want), ...assignmentDiff(t)],
    create: async () => {
      const made = await client.post<HubType>(`/hubs/${hubId}/content-types`, { contentTypeUri: want.contentTypeUri, settings: want.settings }, { idempotencyKey: sync.idempotencyKey(id.key) });
      await assign(made);
      return setTypeStatus(client, made, want.status);
    },
    update: async (t) => {
      const written = await updateType(client, t, want);
      await assign(t);
      return written;
    },
    before: (t) => ({ settings: t.settings, status: t.status }),
  });
}

/** An archived type takes no settings: unarchived first, archived again if wanted. */
export async function updateType(client: ApiClient, have: HubType, want: Pick<WantedType, 'settings' | 'status'>): Promise<Written> {
  let current = have;
  if (diff(have.settings, want.settings).length) {
    current = await setTypeStatus(client, current, 'ACTIVE');
    current = await client.patch<HubType>(`/content-types/${current.id}`, { settings: want.settings });
  }
  return setTypeStatus(client, current, want.status);
}

async function setTypeStatus(client: ApiClient, type: HubType, status: Status): Promise<HubType> {
  if (type.status === status) return type;
  return client.post<HubType>(`/content-types/${type.id}/${status === 'ARCHIVED' ? 'archive' : 'unarchive'}`, {});
}

/** Content types keep a cached copy of their schema: refreshed after the schema changed. */
export function syncCachedSchema(sync: Syncer, client: ApiClient, type: { id: string; contentTypeUri: string }): Promise<string | undefined> {
  return sync.act(
    { key: `type-schema:${type.id}`, resource: 'type-schema', action: 'update', targetId: type.id, label: `${type.contentTypeUri} (cached schema)` },
    () => client.patch(`/content-types/${type.id}/schema`, {}),
  );
}

/**
 * Makes a content type assigned to exactly the wanted repositories (`prune`), or at least to them.
 * Each assignment is its own journaled step (resource `type-assignment`, undone by unassigning).
 */
export async function syncAssignments(sync: Syncer, client: ApiClient, type: { id: string; contentTypeUri: string }, wanted: HubRepository[], repos: HubRepository[], prune: boolean): Promise<void> {
  const has = (r: HubRepository) => (r.contentTypes ?? []).some((t) => t.hubContentTypeId === type.id || t.contentTypeUri === type.contentTypeUri);
  for (const repo of wanted.filter((r) => !has(r))) await assignment(sync, client, type, repo, 'assign');
  if (!prune) return;
  for (const repo of repos.filter((r) => has(r) && !wanted.some((w) => w.id === r.id))) await assignment(sync, client, type, repo, 'unassign');
}

/** The assignment changes syncAssignments would make, for a plan's diff. */
export function assignmentChanges(type: { id: string; contentTypeUri: string } | undefined, wanted: HubRepository[], repos: HubRepository[], prune: boolean): FieldChange[] {
  const assigned = repos.filter((r) => type && (r.contentTypes ?? []).some((t) => t.hubContentTypeId === type.id || t.contentTypeUri === type.contentTypeUri)).map((r) => r.name);
  const want = wanted.map((r) => r.name);
  return setDiff('repositories', assigned, prune ? want : [...new Set([...assigned, ...want])]);
}

function assignment(sync: Syncer, client: ApiClient, type: { id: string; contentTypeUri: string }, repo: HubRepository, action: 'assign' | 'unassign'): Promise<string | undefined> {
  const path = `/content-repositories/${repo.id}/content-types`;
  return sync.act(
    { key: `${action}:${repo.id}:${type.id}`, resource: 'type-assignment', action, targetId: type.id, before: { repositoryId: repo.id }, label: `${type.contentTypeUri} ${action === 'assign' ? '→' : '↛'} ${repo.name}` },
    () => (action === 'assign' ? client.post(path, { contentTypeId: type.id }) : client.delete(`${path}/${type.id}`)),
  );
}
