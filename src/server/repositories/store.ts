import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { stmt } from '../core/statements.js';

export interface AssignedType {
  hubContentTypeId: string;
  contentTypeUri: string;
}

export interface Repository {
  id: string;
  hubId: string;
  name: string;
  label: string;
  status: 'ACTIVE';
  features: string[];
  type: 'CONTENT';
  contentTypes: AssignedType[];
  itemLocales: string[];
  /** The localization group: repositories whose item locales together form the group's locales. */
  groupId: string;
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const repositories = (db: Db) =>
  new Collection<Repository>(
    db,
    'repositories',
    { hub_id: (r) => r.hubId, name: (r) => r.name, group_id: (r) => r.groupId, created_date: (r) => r.createdDate },
    { createdDate: 'created_date', name: 'name' },
  );

/** Every item locale of a localization group, in the order the repositories were created. */
export function groupLocales(db: Db, groupId: string): string[] {
  const rows = stmt(db, 'SELECT data FROM repositories WHERE group_id = ? ORDER BY created_date, rowid').pluck().all(groupId) as string[];
  const locales = new Set<string>();
  for (const r of rows) for (const l of (JSON.parse(r) as Repository).itemLocales) locales.add(l);
  return [...locales];
}
