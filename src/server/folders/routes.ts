import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { conflict } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadFolder } from './load.js';
import { loadRepository } from '../repositories/index.js';
import { archivedItemsIn, folderContents, folders, type Folder } from './store.js';
import { items, touchItem } from '../items/index.js';
import { renderFolder } from './render.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['name', 'createdDate', 'lastModifiedDate'] as const;

/** The top-level folders of a repository. */
export function list(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  return pageOfFolders(ctx, { where: 'repo_id = ? AND parent_id IS NULL', params: [repo.id] });
}

export function listChildren(ctx: RequestContext) {
  const parent = loadFolder(ctx);
  return pageOfFolders(ctx, { where: 'parent_id = ?', params: [parent.id] });
}

export function create(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  return createFolder(ctx, { hubId: repo.hubId, repositoryId: repo.id, parentId: null });
}

export function createChild(ctx: RequestContext) {
  const parent = loadFolder(ctx);
  return createFolder(ctx, { hubId: parent.hubId, repositoryId: parent.repositoryId, parentId: parent.id });
}

export function get(ctx: RequestContext) {
  return ok(renderFolder(ctx, loadFolder(ctx)));
}

/** Rename. */
export function update(ctx: RequestContext) {
  const folder = loadFolder(ctx);
  const { name } = ctx.body<Input<typeof bodies.update>>();
  const next: Folder = { ...folder, name, ...ctx.modifiedStamp() };
  folders(ctx.db).update(next);
  return ok(renderFolder(ctx, next), ctx.href(`/folders/${folder.id}`));
}

/**
 * Deletes an empty folder; one holding sub-folders or items that are not archived is refused, so
 * nothing is lost silently. Archived items do not hold a folder open (the vendor's cleanup
 * archives every item, then deletes the folders): they move to the repository root, so an item
 * unarchived later never names a folder that is gone (no new version: the move is the service's).
 */
export function remove(ctx: RequestContext) {
  const folder = loadFolder(ctx);
  const contents = folderContents(ctx.db, folder.id);
  if (contents.folders || contents.items) {
    throw conflict(`Folder ${folder.name} holds ${contents.folders} sub-folder(s) and ${contents.items} item(s); empty it first`, {
      code: 'FOLDER_NOT_EMPTY',
      entity: 'Folder',
      property: 'id',
      invalidValue: folder.id,
      folders: contents.folders,
      items: contents.items,
    });
  }
  for (const id of archivedItemsIn(ctx.db, folder.id)) {
    const item = items(ctx.db).get(id);
    if (item) touchItem(ctx.db, { ...item, folderId: null });
  }
  folders(ctx.db).delete(folder.id);
  return noContent();
}

function createFolder(ctx: RequestContext, place: Pick<Folder, 'hubId' | 'repositoryId' | 'parentId'>) {
  const { name } = ctx.body<Input<typeof bodies.create>>();
  const folder: Folder = { id: newId(ctx.now()), ...place, name, ...ctx.createdStamp() };
  folders(ctx.db).insert(folder);
  return created(renderFolder(ctx, folder), ctx.href(`/folders/${folder.id}`));
}

function pageOfFolders(ctx: RequestContext, filter: { where: string; params: unknown[] }) {
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  return ok(pageOf(ctx, 'folders', folders(ctx.db).page(filter, req), req, (f) => renderFolder(ctx, f)));
}
