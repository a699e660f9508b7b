import { CliError } from '../../core/errors.js';
import type { HubRepository } from '../content-model.js';
import { folderTree } from '../export.js';
import { isPlanned } from '../runs/reconcile.js';
import type { CloneContext } from './context.js';

// Step `folders`: the folder tree of each repository, parents first. A folder is known by its
// name under its parent (as the item import places items by folder path): a source folder renamed
// since the last clone is a new folder.

interface TargetFolder {
  id: string;
  name: string;
  parentId: string | null;
}

export async function cloneFolders(c: CloneContext): Promise<void> {
  const repos = await c.sourceList<HubRepository>(`/hubs/${c.source.hubId}/content-repositories`, 'content-repositories');
  const targets = await c.targetList<HubRepository>(`/hubs/${c.target.hubId}/content-repositories`, 'content-repositories');
  const trees = await Promise.all(repos.map((r) => folderTree(c.source.client, r.id)));
  c.progress(trees.flat().length, 'folders');
  for (const [i, repo] of repos.entries()) {
    if (!trees[i]!.length) continue;
    const targetRepo = c.ids.get('repository', repo.id) ?? targets.find((t) => t.name === repo.name)?.id;
    if (!targetRepo) {
      c.run.fail(`folders:${repo.id}`, `repository ${repo.name}`, new CliError('has no target repository: its folders were not cloned (run the repositories step first)'));
      continue;
    }
    const existing = isPlanned(targetRepo) ? [] : await folderTree(c.target.client, targetRepo);
    for (const folder of trees[i]!) await cloneFolder(c, folder, targetRepo, existing);
  }
}

async function cloneFolder(c: CloneContext, folder: TargetFolder, targetRepo: string, existing: TargetFolder[]): Promise<void> {
  const parent = folder.parentId ? c.ids.get('folder', folder.parentId) : null;
  const key = `folder:${folder.id}`;
  if (parent === undefined) {
    c.run.fail(key, `folder ${folder.name}`, new CliError('its parent folder was not cloned'));
    return;
  }
  await c.sync.unit<TargetFolder>({
    key,
    resource: 'folder',
    sourceId: folder.id,
    label: folder.name,
    existing: existing.find((t) => t.name === folder.name && t.parentId === parent),
    identify: (t) => ({ id: t.id }),
    changes: () => [],
    create: async () => {
      const path = parent ? `/folders/${parent}/folders` : `/content-repositories/${targetRepo}/folders`;
      return { id: (await c.target.client.post<{ id: string }>(path, { name: folder.name }, { idempotencyKey: c.sync.idempotencyKey(key) })).id };
    },
    update: (t) => Promise.resolve({ id: t.id }),
  });
}
