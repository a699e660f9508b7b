import type { ApiClient } from '../../core/client.js';
import { hubTypes, type HubRepository, type HubType } from '../content-model.js';
import { diff, setDiff, type FieldChange } from '../runs/diff.js';
import { isPlanned, matchTarget } from '../runs/reconcile.js';
import { pick, type CloneContext } from './context.js';
import { hasType } from './types.js';

// Step `repositories`: each repository by name, with its label, features and item locales; a new
// one also gets its content types assigned. Then the localization groups: repositories grouped in
// the source are joined in the target.

interface Repository extends HubRepository {
  label: string;
  features?: string[];
  itemLocales?: string[];
}

interface GroupInfo {
  repositories: { id: string; name: string }[];
}

export async function cloneRepositories(c: CloneContext): Promise<void> {
  const source = await c.sourceList<Repository>(`/hubs/${c.source.hubId}/content-repositories`, 'content-repositories');
  const target = await c.targetList<Repository>(`/hubs/${c.target.hubId}/content-repositories`, 'content-repositories');
  const types = isPlanned(c.target.hubId) ? [] : await hubTypes(c.target.client, c.target.hubId);
  c.progress(source.length, 'repositories');
  for (const repo of source) {
    const existing = matchTarget(c.ids, 'repository', repo.id, target, (t) => t.name === repo.name);
    await syncRepository(c, repo, existing, types);
  }
  await joinLocalizationGroups(c, source);
}

const wantedState = (r: Repository) => ({ name: r.name, label: r.label, features: [...(r.features ?? [])].sort(), itemLocales: r.itemLocales ?? [] });

function repositoryChanges(have: Repository, want: Repository): FieldChange[] {
  const h = wantedState(have);
  const w = wantedState(want);
  return [...diff(pick(h, ['name', 'label']), pick(w, ['name', 'label'])), ...setDiff('features', h.features, w.features), ...diff(h.itemLocales, w.itemLocales, 'itemLocales')];
}

function syncRepository(c: CloneContext, repo: Repository, existing: Repository | undefined, types: HubType[]): Promise<string | undefined> {
  const client = c.target.client;
  const key = `repository:${repo.id}`;
  const empty: Repository = { id: '', name: '', label: '', features: [], itemLocales: [] };
  const uris = (repo.contentTypes ?? []).map((t) => t.contentTypeUri);
  return c.sync.unit<Repository>({
    key,
    resource: 'repository',
    sourceId: repo.id,
    label: repo.name,
    existing,
    initial: [...repositoryChanges(empty, repo).filter((ch) => ch.path !== 'name' && ch.path !== 'label'), ...uris.map((uri) => ({ path: 'contentTypes', op: 'add' as const, to: uri }))],
    identify: (t) => ({ id: t.id }),
    changes: (t) => repositoryChanges(t, repo),
    create: async () => {
      const made = await client.post<Repository>(`/hubs/${c.target.hubId}/content-repositories`, { name: repo.name, label: repo.label }, { idempotencyKey: c.sync.idempotencyKey(key) });
      await updateRepository(client, made, repo);
      await assignTypes(client, made, repo, types);
      return { id: made.id };
    },
    update: async (t) => {
      await updateRepository(client, t, repo);
      return { id: t.id };
    },
    before: (t) => pick(t, ['name', 'label']),
  });
}

/** Name and label, features (added and removed) and item locales, each only when it differs. */
async function updateRepository(client: ApiClient, have: Repository, want: Repository): Promise<void> {
  const h = wantedState(have);
  const w = wantedState(want);
  if (h.name !== w.name || h.label !== w.label) await client.patch(`/content-repositories/${have.id}`, { name: w.name, label: w.label });
  for (const ch of setDiff('features', h.features, w.features)) {
    const feature = String(ch.op === 'add' ? ch.to : ch.from);
    const path = `/content-repositories/${have.id}/features`;
    if (ch.op === 'add') await client.post(path, undefined, { query: { feature } });
    else await client.delete(path, { query: { feature } });
  }
  if (diff(h.itemLocales, w.itemLocales).length) await client.post(`/content-repositories/${have.id}/item-locales`, { itemLocales: w.itemLocales });
}

/** A new repository takes the content types its source has (the types step ran before it). */
async function assignTypes(client: ApiClient, made: Repository, repo: Repository, types: HubType[]): Promise<void> {
  for (const type of types.filter((t) => hasType(repo, t.contentTypeUri))) await client.post(`/content-repositories/${made.id}/content-types`, { contentTypeId: type.id });
}

/** Repositories grouped in the source join the group of the first of them in the target. */
async function joinLocalizationGroups(c: CloneContext, source: Repository[]): Promise<void> {
  const groups = new Map<string, string[]>();
  for (const repo of source) {
    const info = await c.source.client.get<GroupInfo>(`/content-repositories/${repo.id}/localization-group/locales`);
    const members = info.repositories.map((r) => r.id);
    if (members.length > 1) groups.set([...members].sort().join(','), members);
  }
  for (const members of groups.values()) {
    const [anchor, ...others] = members.map((id) => ({ id, name: source.find((r) => r.id === id)?.name ?? id, target: c.ids.get('repository', id) }));
    if (!anchor!.target) continue;
    const grouped = isPlanned(anchor!.target) ? [] : (await c.target.client.get<GroupInfo>(`/content-repositories/${anchor!.target}/localization-group/locales`)).repositories.map((r) => r.id);
    for (const member of others) {
      if (!member.target) continue;
      const spec = { key: `localization-group:${member.id}`, resource: 'localization-group', sourceId: member.id, targetId: member.target, label: `${member.name} in the localization group of ${anchor!.name}` };
      if (grouped.includes(member.target)) await c.sync.act({ ...spec, action: 'unchanged' }, async () => {});
      else await c.sync.act({ ...spec, action: 'update' }, () => c.target.client.post(`/content-repositories/${anchor!.target}/localization-group`, { newRepositoryId: member.target }));
    }
  }
}
