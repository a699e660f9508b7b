import type { FieldChange } from '../runs/diff.js';
import { diff } from '../runs/diff.js';
import type { DerivedItem, ItemBody, ItemChange, MigrationItem } from './api.js';
import { changeProblem, type MigrationHost } from './load.js';
import { DERIVED_PREFIX } from './worker-source.js';

// One item through a migration: what migrate() returned, as the state the item should reach and
// the field-level differences to it. The same for a live run, a dry run and an offline run.

/** An item as the service (or an export) holds it: what a migration item is made from. */
export interface StoredItem {
  id: string;
  label: string;
  body: ItemBody;
  locale?: string | null;
  folderId?: string | null;
  deliveryKey?: string | null;
  version: number;
  status: 'ACTIVE' | 'ARCHIVED';
  contentRepositoryId: string;
  workflow?: { state?: string | null } | null;
  publishingStatus?: string;
}

export function migrationItem(item: StoredItem): MigrationItem {
  return {
    id: item.id,
    label: item.label,
    body: item.body,
    schema: item.body?._meta?.schema,
    locale: item.locale ?? null,
    folderId: item.folderId ?? null,
    deliveryKey: item.deliveryKey ?? null,
    version: item.version,
    status: item.status,
    contentRepositoryId: item.contentRepositoryId,
    workflowState: item.workflow?.state ?? null,
    ...(item.publishingStatus === undefined ? {} : { publishingStatus: item.publishingStatus }),
  };
}

/** The fields a migration changes, as they are and as they should be. */
export interface State {
  label: string;
  folderId: string | null;
  deliveryKey: string | null;
  workflowState: string | null;
  status: 'ACTIVE' | 'ARCHIVED';
  body: ItemBody;
}

export type Verdict =
  | { kind: 'skip' }
  | { kind: 'fail'; reason: string }
  | { kind: 'unchanged' }
  | { kind: 'change'; from: State; to: State; changes: FieldChange[]; derived: DerivedItem[] };

export const stateOf = (item: StoredItem): State => ({
  label: item.label,
  folderId: item.folderId ?? null,
  deliveryKey: item.deliveryKey ?? null,
  workflowState: item.workflow?.state ?? null,
  status: item.status,
  body: item.body,
});

/** Runs the migration on the item and says what should change. */
export async function judge(host: MigrationHost, item: StoredItem, resolveState?: (name: string) => string | undefined): Promise<Verdict> {
  const outcome = await host.run(migrationItem(item));
  if (outcome.error) return { kind: 'fail', reason: `migrate() failed: ${outcome.error}` };
  if (outcome.skip) return { kind: 'skip' };
  if (outcome.none || !outcome.change) return { kind: 'unchanged' };
  const change = outcome.change;
  const problem = changeProblem(change);
  if (problem) return { kind: 'fail', reason: problem };
  const from = stateOf(item);
  const to = target(from, change, resolveState);
  if (typeof to === 'string') return { kind: 'fail', reason: to };
  const derived = outcome.derived ?? [];
  const changes = [...diff(viewOf(from), viewOf(to)), ...derived.map((d, n) => ({ path: `derived[${n}]`, op: 'add' as const, to: { label: d.label, contentType: d.contentType } }))];
  return changes.length ? { kind: 'change', from, to, changes, derived } : { kind: 'unchanged' };
}

/** What diff compares: the fields people know, body last. */
const viewOf = (s: State) => ({ label: s.label, folderId: s.folderId, deliveryKey: s.deliveryKey, workflowState: s.workflowState, status: s.status, body: s.body });

function target(from: State, change: ItemChange, resolveState?: (name: string) => string | undefined): State | string {
  const to: State = { ...from };
  if (change.body) {
    const given = change.body as Record<string, unknown> & { _meta?: Record<string, unknown> };
    to.body = { ...given, _meta: { ...from.body._meta, ...(given._meta ?? {}) } } as ItemBody;
  }
  if (change.contentType) to.body = { ...to.body, _meta: { ...to.body._meta, schema: change.contentType } };
  if (typeof to.body._meta.schema !== 'string' || !to.body._meta.schema) return 'the changed body has no _meta.schema';
  if (change.label !== undefined) to.label = change.label;
  if (change.folderId !== undefined) to.folderId = change.folderId;
  if (change.deliveryKey !== undefined) {
    to.deliveryKey = change.deliveryKey;
    // The service reads a delivery key from the body too: both say the same.
    if ('deliveryKey' in to.body._meta || change.deliveryKey !== null) to.body = { ...to.body, _meta: { ...to.body._meta, deliveryKey: change.deliveryKey } };
  }
  if (change.workflowState !== undefined) {
    const state = change.workflowState === null ? null : (resolveState?.(change.workflowState) ?? change.workflowState);
    if (state === undefined) return `no workflow state '${change.workflowState}'`;
    to.workflowState = state;
  }
  if (change.archive !== undefined) to.status = change.archive ? 'ARCHIVED' : 'ACTIVE';
  return to;
}

/** Whether a field group changed between two states. */
export const changed = {
  content: (a: State, b: State) => a.label !== b.label || a.folderId !== b.folderId || a.deliveryKey !== b.deliveryKey || JSON.stringify(a.body) !== JSON.stringify(b.body),
  body: (a: State, b: State) => JSON.stringify(a.body) !== JSON.stringify(b.body),
  workflow: (a: State, b: State) => a.workflowState !== b.workflowState,
  status: (a: State, b: State) => a.status !== b.status,
};

/** Replaces the placeholder ids of derived items by their real ids (the body holds links to them). */
export function withDerivedIds<T>(value: T, ids: string[]): T {
  if (!ids.length) return value;
  return JSON.parse(JSON.stringify(value), (_k, v) => (typeof v === 'string' && v.startsWith(DERIVED_PREFIX) ? (ids[Number(v.slice(DERIVED_PREFIX.length))] ?? v) : v)) as T;
}
