import type { Db } from '../db.js';
import { stmt } from '../statements.js';
import { FUNCTIONAL_PERMISSIONS, type AclResourceType } from './permissions.js';

/** The authenticated caller: a client with functional permissions and ACL entries. */
export class Principal {
  private aclCache: Map<string, Set<string>> | null = null;

  constructor(
    private readonly db: Db,
    readonly clientId: string,
    readonly admin: boolean,
    private readonly functional: ReadonlySet<string>,
    /** Which creation of the client id this is: tokens of another one are refused. */
    readonly generation: string = '',
  ) {}

  static load(db: Db, clientId: string): Principal | null {
    const row = stmt(db, 'SELECT id, admin, permissions, generation FROM clients WHERE id = ?').get(clientId) as
      | { id: string; admin: number; permissions: string; generation: string }
      | undefined;
    if (!row) return null;
    return new Principal(db, row.id, row.admin === 1, new Set(JSON.parse(row.permissions) as string[]), row.generation);
  }

  /**
   * The user's own credentials: the admin client, or a client given every functional permission
   * (`cms sandbox client create --permission all`). What only such a client may do: deliver
   * webhooks to loopback and read the answers of receivers that are not public (webhooks/destinations.ts).
   */
  get fullyTrusted(): boolean {
    return this.admin || FUNCTIONAL_PERMISSIONS.every((p) => this.functional.has(p));
  }

  hasFunctional(permission: string): boolean {
    return this.admin || this.functional.has(permission);
  }

  /** ACL permissions held on one resource (every permission for the admin client). */
  acl(type: AclResourceType, id: string): ReadonlySet<string> | 'all' {
    if (this.admin) return 'all';
    if (!this.aclCache) {
      this.aclCache = new Map();
      const rows = stmt(this.db, 'SELECT resource_type, resource_id, permission FROM acl WHERE client_id = ?').all(this.clientId) as {
        resource_type: string;
        resource_id: string;
        permission: string;
      }[];
      for (const r of rows) {
        const key = `${r.resource_type}/${r.resource_id}`;
        let set = this.aclCache.get(key);
        if (!set) this.aclCache.set(key, (set = new Set()));
        set.add(r.permission);
      }
    }
    return this.aclCache.get(`${type}/${id}`) ?? new Set();
  }

  hasAcl(type: AclResourceType, id: string, permission: string): boolean {
    const held = this.acl(type, id);
    return held === 'all' || held.has(permission);
  }

  /** Grants this caller ACL permissions (on what it creates); later checks of the request see them. */
  grant(type: AclResourceType, id: string, permissions: readonly string[]): void {
    grantAcl(this.db, this.clientId, type, id, permissions);
    this.aclCache = null;
  }

  /** Ids of hubs this caller has any ACL on; null means every hub. */
  visibleHubIds(): string[] | null {
    if (this.admin) return null;
    return stmt(this.db, "SELECT DISTINCT resource_id FROM acl WHERE client_id = ? AND resource_type = 'hubs'").pluck().all(this.clientId) as string[];
  }
}

export function grantAcl(db: Db, clientId: string, type: AclResourceType, id: string, permissions: readonly string[]): void {
  const insert = stmt(db, 'INSERT OR IGNORE INTO acl (client_id, resource_type, resource_id, permission) VALUES (?, ?, ?, ?)');
  for (const p of permissions) insert.run(clientId, type, id, p);
}

export function revokeAcl(db: Db, clientId: string, type: AclResourceType, id: string, permissions: readonly string[]): number {
  const del = stmt(db, 'DELETE FROM acl WHERE client_id = ? AND resource_type = ? AND resource_id = ? AND permission = ?');
  let n = 0;
  for (const p of permissions) n += del.run(clientId, type, id, p).changes;
  return n;
}
