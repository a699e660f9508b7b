import type { Db } from './db.js';
import { coreSeed } from './seed.js';

export interface Migration {
  /** Unique, never renamed: records which migrations a database has. */
  id: string;
  sql: string;
  seed?: (db: Db) => void;
}

// Applied in this order. Resource families append their own migration; never edit an applied one.
// Every resource row keeps its indexed columns beside the full resource as JSON in `data`.
export const migrations: Migration[] = [
  {
    id: '0001-core',
    sql: `
      CREATE TABLE sandbox_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE clients (
        id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL,
        admin INTEGER NOT NULL DEFAULT 0,
        permissions TEXT NOT NULL DEFAULT '[]',
        label TEXT,
        created_date TEXT NOT NULL
      );
      CREATE TABLE acl (
        client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        resource_type TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        permission TEXT NOT NULL,
        PRIMARY KEY (client_id, resource_type, resource_id, permission)
      );
      CREATE INDEX acl_resource ON acl(resource_type, resource_id);
      CREATE TABLE hubs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE TABLE repositories (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        group_id TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (hub_id, name)
      );
      CREATE INDEX repositories_group ON repositories(group_id);
      CREATE TABLE tasks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        due_at INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER,
        last_error TEXT,
        payload TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX tasks_due ON tasks(state, due_at, id);
    `,
    seed: coreSeed,
  },
];
