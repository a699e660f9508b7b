import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import type { Folder } from './store.js';

/** A folder; only a nested folder has parent-folder (clients find top-level folders by its absence). */
export function renderFolder(ctx: RequestContext, folder: Folder) {
  const base = ctx.href(`/folders/${folder.id}`);
  const repoBase = ctx.href(`/content-repositories/${folder.repositoryId}`);
  const { links, add } = linkSet(ctx, { hubId: folder.hubId, repoId: folder.repositoryId }, { self: link(base), folder: link(base) });
  add('folders.listChildren', 'folders', templated(`${base}/folders{?page,size,sort}`));
  add('folders.createChild', 'create-folder', link(`${base}/folders`));
  add('folders.update', 'update-folder', link(base));
  add('folders.remove', 'delete-folder', link(base));
  add('repositories.get', 'content-repository', link(repoBase));
  add('items.list', 'content-items', templated(`${repoBase}/content-items?folderId=${folder.id}{&page,size,sort,status,projection}`));
  if (folder.parentId) add('folders.get', 'parent-folder', link(ctx.href(`/folders/${folder.parentId}`)));
  const { hubId: _hub, repositoryId, ...fields } = folder;
  return { ...fields, contentRepositoryId: repositoryId, _links: links };
}
