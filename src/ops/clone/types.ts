import { hubRepositoryList, hubTypes, syncCachedSchema, syncType, type HubRepository, type HubType } from '../content-model.js';
import { isPlanned, matchTarget } from '../runs/reconcile.js';
import type { CloneContext } from './context.js';

// Step `types`: every content type (archived ones too) by schema URI, with its settings, and its
// assignments to the target repositories that exist (those the repositories step creates get
// theirs there). Types whose schema changed in this run get their cached schema refreshed.

export async function cloneTypes(c: CloneContext): Promise<void> {
  const source = await hubTypes(c.source.client, c.source.hubId);
  const target = await c.targetList<HubType>(`/hubs/${c.target.hubId}/content-types`, 'content-types', { status: 'ACTIVE,ARCHIVED' });
  const sourceRepos = await hubRepositoryList(c.source.client, c.source.hubId);
  const targetRepos = await c.targetList<HubRepository>(`/hubs/${c.target.hubId}/content-repositories`, 'content-repositories');
  c.progress(source.length, 'types');
  for (const type of source) {
    const existing = matchTarget(c.ids, 'type', type.id, target, (t) => t.contentTypeUri === type.contentTypeUri);
    const wanted = sourceRepos.filter((r) => hasType(r, type.contentTypeUri)).flatMap((r) => targetRepository(c, r, targetRepos) ?? []);
    const want = { contentTypeUri: type.contentTypeUri, settings: type.settings, status: type.status };
    const id = await syncType(c.sync, c.target.client, c.target.hubId, want, existing, { key: `type:${type.id}`, sourceId: type.id, label: type.contentTypeUri }, { wanted, repos: targetRepos, prune: false });
    if (id && existing && existing.status === 'ACTIVE' && c.changedSchemas.has(type.contentTypeUri)) await syncCachedSchema(c.sync, c.target.client, existing);
  }
}

export const hasType = (repo: HubRepository, uri: string) => (repo.contentTypes ?? []).some((t) => t.contentTypeUri === uri);

/** The target repository of a source one: mapped, or named alike. */
export function targetRepository(c: CloneContext, repo: { id: string; name: string }, targets: HubRepository[]): HubRepository | undefined {
  const found = matchTarget(c.ids, 'repository', repo.id, targets, (t) => t.name === repo.name);
  return found && !isPlanned(found.id) ? found : undefined;
}
