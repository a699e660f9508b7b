import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { folders, type Folder } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadFolder(ctx: RequestContext, id = ctx.params.folderId!): Folder {
  const folder = folders(ctx.db).get(id);
  if (!folder) throw notFound('Folder', id);
  ctx.authorize({ hubId: folder.hubId, repoId: folder.repositoryId }, 'Folder', id);
  return folder;
}
