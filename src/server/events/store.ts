import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export interface CmsEvent {
  id: string;
  hubId: string;
  name: string;
  comment: string;
  start: string;
  end: string;
  brief: string;
  status: 'ACTIVE' | 'ARCHIVED';
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const events = (db: Db) =>
  new Collection<CmsEvent>(db, 'events', { hub_id: (e) => e.hubId, start: (e) => e.start, created_date: (e) => e.createdDate }, { start: 'start', createdDate: 'created_date' });
