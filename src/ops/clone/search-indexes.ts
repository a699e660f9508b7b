import { CliError } from '../../core/errors.js';
import { diff, setDiff } from '../runs/diff.js';
import { isPlanned, matchTarget } from '../runs/reconcile.js';
import type { CloneContext } from './context.js';
import { ensureModule, moduleEnabled } from './modules.js';

// Step `search-indexes`: when the source hub has the search index module, it is enabled on the
// target and each primary index recreated by suffix with its label, type, status, assigned
// content types and settings; its replicas come from the settings (`replicas`, renamed to the
// target hub's name) and then get their own settings. Index records are not copied: the indexes
// fill as items are published on the target.

interface SearchIndex {
  id: string;
  name: string;
  suffix: string;
  label: string;
  type: string;
  status: string;
  parentId: string | null;
  settings?: Record<string, unknown>;
}

const withSettings = { projection: 'withSettings' };

export async function cloneSearchIndexes(c: CloneContext): Promise<void> {
  const source = await c.sourceList<SearchIndex>(`/hubs/${c.source.hubId}/search-indexes`, 'indexes', withSettings);
  if (!source.length && !(await moduleEnabled(c.source, 'search-index'))) return;
  await ensureModule(c, 'search-index');
  const primaries = source.filter((i) => i.parentId === null);
  const targets = await c.targetList<SearchIndex>(`/hubs/${c.target.hubId}/search-indexes`, 'indexes', withSettings);
  c.progress(source.length, 'search indexes');
  for (const index of primaries) {
    const id = await clonePrimary(c, index, matchTarget(c.ids, 'search-index', index.id, targets, (t) => t.parentId === null && t.suffix === index.suffix));
    if (id) for (const replica of source.filter((r) => r.parentId === index.id)) await cloneReplica(c, replica, id);
  }
}

/** Replica names carry the hub's name: `<hub>.<replica>`. */
function renamed(c: CloneContext, name: string): string {
  const prefix = `${c.source.hubName}.`;
  return name.startsWith(prefix) ? `${c.target.hubName}.${name.slice(prefix.length)}` : name;
}

function wantedSettings(c: CloneContext, index: SearchIndex): Record<string, unknown> {
  const { primary: _primary, ...settings } = index.settings ?? {};
  if (Array.isArray(settings.replicas)) settings.replicas = settings.replicas.map((n) => renamed(c, String(n)));
  return settings;
}

const settingsOf = (index: SearchIndex) => {
  const { primary: _primary, ...settings } = index.settings ?? {};
  return settings;
};

async function assignedTypes(c: CloneContext, side: 'source' | 'target', hubId: string, indexId: string): Promise<string[]> {
  const path = `/hubs/${hubId}/search-indexes/${indexId}/assigned-content-types`;
  const list = side === 'source' ? await c.sourceList<{ contentTypeUri: string }>(path, 'assigned-content-types') : await c.targetList<{ contentTypeUri: string }>(path, 'assigned-content-types');
  return list.map((t) => t.contentTypeUri).sort();
}

async function clonePrimary(c: CloneContext, index: SearchIndex, existing: SearchIndex | undefined): Promise<string | undefined> {
  const types = await assignedTypes(c, 'source', c.source.hubId, index.id);
  const has = existing ? await assignedTypes(c, 'target', c.target.hubId, existing.id) : [];
  const settings = wantedSettings(c, index);
  const client = c.target.client;
  const base = `/hubs/${c.target.hubId}/search-indexes`;
  const key = `search-index:${index.id}`;
  return c.sync.unit<SearchIndex>({
    key,
    resource: 'search-index',
    sourceId: index.id,
    label: index.suffix,
    existing,
    initial: [...types.map((t) => ({ path: 'assignedContentTypes', op: 'add' as const, to: t })), ...diff({}, settings, 'settings')],
    identify: (t) => ({ id: t.id }),
    changes: (t) => [...diff({ label: t.label, status: t.status }, { label: index.label, status: index.status }), ...setDiff('assignedContentTypes', has, types), ...diff(settingsOf(t), settings, 'settings')],
    create: async () => {
      const body = { suffix: index.suffix, label: index.label, type: index.type, assignedContentTypes: types.map((contentTypeUri) => ({ contentTypeUri })) };
      const made = await client.post<SearchIndex>(base, body, { idempotencyKey: c.sync.idempotencyKey(key) });
      if (Object.keys(settings).length) await client.patch(`${base}/${made.id}/settings`, settings);
      if (index.status === 'ARCHIVED') await client.post(`${base}/${made.id}/archive`, {});
      return { id: made.id };
    },
    update: async (t) => {
      if (t.status === 'ARCHIVED') await client.post(`${base}/${t.id}/unarchive`, {});
      if (t.label !== index.label) await client.patch(`${base}/${t.id}`, { label: index.label });
      for (const uri of types.filter((u) => !has.includes(u))) await client.post(`${base}/${t.id}/assigned-content-types`, { contentTypeUri: uri });
      if (diff(settingsOf(t), settings).length) await client.patch(`${base}/${t.id}/settings`, settings);
      if (index.status === 'ARCHIVED') await client.post(`${base}/${t.id}/archive`, {});
      return { id: t.id };
    },
    before: (t) => ({ label: t.label }),
  });
}

/** A replica exists once its primary's settings name it; its own settings follow the source's. */
async function cloneReplica(c: CloneContext, replica: SearchIndex, targetPrimary: string): Promise<void> {
  const name = renamed(c, replica.name);
  const targets = isPlanned(targetPrimary) ? [] : await c.targetList<SearchIndex>(`/hubs/${c.target.hubId}/search-indexes`, 'indexes', { ...withSettings, parentId: targetPrimary });
  const settings = settingsOf(replica);
  const path = (id: string) => `/hubs/${c.target.hubId}/search-indexes/${id}/settings`;
  await c.sync.unit<SearchIndex>({
    key: `search-index:${replica.id}`,
    resource: 'search-index',
    sourceId: replica.id,
    label: `${replica.suffix} (replica)`,
    existing: targets.find((t) => t.name === name),
    identify: (t) => ({ id: t.id }),
    changes: (t) => diff(settingsOf(t), settings, 'settings'),
    create: () => Promise.reject(new CliError(`replica ${name} was not created by its primary's settings`)),
    update: async (t) => {
      await c.target.client.patch(path(t.id), settings);
      return { id: t.id };
    },
  });
}
