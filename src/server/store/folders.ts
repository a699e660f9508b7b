import type { Db } from './db.js';
import { Collection } from './collection.js';

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
