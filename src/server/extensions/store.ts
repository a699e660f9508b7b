import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export interface Extension {
  id: string;
  hubId: string;
  /** Unique in the hub: the key of get-by-name. */
  name: string;
  label: string;
  description: string | null;
  url: string;
  height: number | null;
  category: 'CONTENT_FIELD' | 'DASHBOARD';
  /** Free text (typically JSON) handed to the extension. */
  parameters: string | null;
  snippets: { label: string; body: string }[];
  /** A JSON document as a string. */
  settings: string | null;
  status: 'ACTIVE' | 'ARCHIVED';
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const extensions = (db: Db) =>
  new Collection<Extension>(db, 'extensions', { hub_id: (e) => e.hubId, name: (e) => e.name, created_date: (e) => e.createdDate }, { createdDate: 'created_date', name: 'name' });
