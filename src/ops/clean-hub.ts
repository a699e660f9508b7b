import type { ApiClient } from '../core/client.js';
import { ApiError } from '../core/errors.js';
import type { BulkRun } from './runs/bulk-run.js';
import { collect, folderTree, hubRepositories } from './export.js';

// `cms hub clean`: what the vendor's cleanup does to a hub, in its order: archive every item,
// delete the folders (archived items do not hold a folder open), archive the content types,
// then the schemas. The plan is read from the hub as it is now, so a rerun or --resume does
// only what is left (nothing is archived twice). Each write is journaled: cms undo unarchives
// the items, types and schemas; deleted folders stay deleted.

interface PlannedItem {
  id: string;
  label: string;
  version: number;
  repository: string;
}
interface PlannedFolder {
  id: string;
  name: string;
  repository: string;
}
interface PlannedType {
  id: string;
  contentTypeUri: string;
  settings: Record<string, unknown>;
}
interface PlannedSchema {
  id: string;
  schemaId: string;
  version: number;
  body: string;
  validationLevel: string;
}

export interface CleanPlan {
  items: PlannedItem[];
  /** Children before their parents. */
  folders: PlannedFolder[];
  types: PlannedType[];
  schemas: PlannedSchema[];
}

/** What a cleanup of the hub would do now: its active items, its folders, its active types and schemas. */
export async function planClean(client: ApiClient, hubId: string): Promise<CleanPlan> {
  const plan: CleanPlan = { items: [], folders: [], types: [], schemas: [] };
  for (const repo of (await hubRepositories(client, hubId)).values()) {
    for (const item of await collect<PlannedItem>(client, `/content-repositories/${repo.id}/content-items`, 'content-items', { status: 'ACTIVE' })) {
      plan.items.push({ id: item.id, label: item.label, version: item.version, repository: repo.name });
    }
    // folderTree lists parents first: deleted in reverse, every folder is empty of sub-folders when its turn comes.
    for (const f of (await folderTree(client, repo.id)).reverse()) plan.folders.push({ id: f.id, name: f.name, repository: repo.name });
  }
  plan.types = (await collect<PlannedType & { status: string }>(client, `/hubs/${hubId}/content-types`, 'content-types', { status: 'ACTIVE' })).map(({ id, contentTypeUri, settings }) => ({ id, contentTypeUri, settings }));
  plan.schemas = (await collect<PlannedSchema & { status: string }>(client, `/hubs/${hubId}/content-type-schemas`, 'content-type-schemas', { status: 'ACTIVE' })).map(({ id, schemaId, version, body, validationLevel }) => ({ id, schemaId, version, body, validationLevel }));
  return plan;
}

export const planSize = (plan: CleanPlan) => plan.items.length + plan.folders.length + plan.types.length + plan.schemas.length;

/** Carries the plan out (a dry run only lists it). A failed step is reported and the run goes on (exit 3). */
export async function runClean(run: BulkRun, client: ApiClient, plan: CleanPlan, signal?: AbortSignal): Promise<void> {
  run.progress.start(planSize(plan), 'clean');
  const step = async (key: string, id: string, write: () => Promise<{ version?: number } | void>, entry: Parameters<BulkRun['record']>[0], place?: { repository?: string }) => {
    signal?.throwIfAborted();
    if (run.done(key)) return;
    try {
      const answer = run.dryRun ? undefined : await write();
      run.record({ ...entry, ...(answer && typeof answer.version === 'number' ? { version: answer.version } : {}) }, { place, tick: true });
    } catch (err) {
      // Gone or already done by someone else since the plan was read: nothing left to do.
      if (err instanceof ApiError && err.status === 404) return run.note(`${entry.resource} ${id} no longer exists; skipped`);
      run.fail(key, id, err);
    }
  };
  for (const i of plan.items) {
    const key = `archive:item:${i.id}`;
    await step(key, i.id, () => client.post(`/content-items/${i.id}/archive`, { version: i.version }), { key, action: 'archive', resource: 'item', targetId: i.id, label: i.label, before: { version: i.version, status: 'ACTIVE' } }, { repository: i.repository });
  }
  for (const f of plan.folders) {
    const key = `delete:folder:${f.id}`;
    await step(key, f.id, () => client.delete(`/folders/${f.id}`), { key, action: 'delete', resource: 'folder', targetId: f.id, label: f.name }, { repository: f.repository });
  }
  for (const t of plan.types) {
    const key = `archive:type:${t.id}`;
    await step(key, t.id, () => client.post(`/content-types/${t.id}/archive`, {}), { key, action: 'archive', resource: 'type', targetId: t.id, label: t.contentTypeUri, before: { status: 'ACTIVE', settings: t.settings } });
  }
  for (const s of plan.schemas) {
    const key = `archive:schema:${s.id}`;
    await step(key, s.id, () => client.post(`/content-type-schemas/${s.id}/archive`, { version: s.version }), { key, action: 'archive', resource: 'schema', targetId: s.id, label: s.schemaId, version: s.version + 1, before: { status: 'ACTIVE', body: s.body, validationLevel: s.validationLevel } });
  }
}
