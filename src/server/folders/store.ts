import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { stmt } from '../core/statements.js';

export interface Folder {
  id: string;
  hubId: string;
  repositoryId: string;
  parentId: string | null;
  name: string;
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const folders = (db: Db) =>
  new Collection<Folder>(
    db,
    'folders',
    { hub_id: (f) => f.hubId, repo_id: (f) => f.repositoryId, parent_id: (f) => f.parentId, name: (f) => f.name, created_date: (f) => f.createdDate },
    { createdDate: 'created_date', name: 'name' },
  );

/** What holds a folder open: its sub-folders and its items that are not archived (issue 22.8). */
export function folderContents(db: Db, id: string): { folders: number; items: number } {
  return {
    folders: stmt(db, 'SELECT count(*) FROM folders WHERE parent_id = ?').pluck().get(id) as number,
    items: stmt(db, "SELECT count(*) FROM content_items WHERE folder_id = ? AND status <> 'ARCHIVED'").pluck().get(id) as number,
  };
}

/** The archived items of a folder (they move to the repository root when it is deleted). */
export function archivedItemsIn(db: Db, id: string): string[] {
  return stmt(db, "SELECT id FROM content_items WHERE folder_id = ? AND status = 'ARCHIVED'").pluck().all(id) as string[];
}
