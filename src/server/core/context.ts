import type { Db } from './db.js';
import type { Principal } from './auth/principal.js';
import type { AclRequirement } from './auth/permissions.js';
import { badRequest, forbidden, notFound } from './errors.js';
import { parseFirstJsonValue } from './body.js';
import type { RouteDef } from './route-table.js';
import type { SandboxClock } from './clock-store.js';
import type { FaultInjector } from './faults.js';
import type { RequestJournal } from './journal.js';
import type { Caches } from './caches.js';
import type { ServiceRequest } from './exchange.js';
import { validateNow } from './body-schemas.js';
import type { SnapshotInfo } from './snapshot-file.js';

/**
 * What handlers and scheduled tasks need of the service. The service (service.ts) implements it;
 * core and the families know only this, so nothing below the service imports it.
 */
export interface ServiceHost {
  readonly db: Db;
  readonly clock: SandboxClock;
  readonly scheduler: TaskQueue;
  readonly faults: FaultInjector;
  readonly journal: RequestJournal;
  readonly tokenTtlSeconds: number;
  readonly signingKey: Buffer;
  readonly options: { readonly dataDir: string; readonly allowWebhookTo?: readonly string[] };
  /** Caches valid until the data changes (here or in another process); see Caches. */
  readonly caches: Caches;
  /** Records that this process changed the data: cached state is re-read on the next request. */
  markChanged(): void;
  /** Where named snapshots live; saving and restoring one (core/snapshot-file.ts). */
  readonly snapshotDir: string;
  /** `force` replaces a file that is not a snapshot (otherwise refused: NotASnapshotTarget). */
  saveSnapshot(file: string, options?: { force?: boolean }): SnapshotInfo;
  restoreSnapshot(file: string): SnapshotInfo;
  /** What a snapshot file holds, once checked to be one this cms can restore (SnapshotError otherwise). */
  inspectSnapshot(file: string): SnapshotInfo;
  /** The route of an operation (`<family>.<handler>`): what `ctx.can` and acting contexts need. */
  routeByOp(op: string): RouteDef | undefined;
  /** Sets ctx.principal from the bearer token (401 when missing or invalid). */
  authenticate(ctx: RequestContext): void;
}

/** The scheduler as families see it: work to run later (sandbox time), in order. */
export interface TaskQueue {
  enqueue(kind: string, ref: string, dueAt: number, payload?: unknown): number;
  cancel(kind: string, ref: string): number;
  runDue(): Promise<void>;
}

export interface Scope {
  hubId: string;
  repoId?: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body that is not JSON (rendered HTML, schema documents served as-is). */
  raw?: { contentType: string; text: string };
  /** The JSON body already serialized (hot paths that send stored JSON instead of re-encoding it). */
  json?: string;
}

export const ok = (body: unknown, location?: string): Reply => ({ status: 200, body, headers: location ? { Location: location } : undefined });
export const created = (body: unknown, location: string): Reply => ({ status: 201, body, headers: { Location: location } });
export const accepted = (body: unknown, location?: string): Reply => ({ status: 202, body, headers: location ? { Location: location } : undefined });
export const noContent = (location?: string): Reply => ({ status: 204, headers: location ? { Location: location } : undefined });

/** Everything a handler needs for one request. Handlers are synchronous: each runs in one transaction. */
export class RequestContext {
  readonly url: URL;
  readonly origin: string;
  /** `{origin}/v2/content`: every management link starts here. */
  readonly base: string;
  readonly query: URLSearchParams;
  principal!: Principal;
  /** The validated body, when the route declares a body schema. */
  input: unknown;
  /** Set once the handler has applied the route's ACLs; the service checks it was done. */
  aclChecked = false;
  private parsedBody: unknown;
  private bodyParsed = false;

  constructor(
    readonly service: ServiceHost,
    readonly req: ServiceRequest,
    url: URL,
    readonly route: RouteDef,
    readonly params: Record<string, string>,
    /** Set by the service once the caller is allowed to send it (see Service.route). */
    public bodyText = '',
  ) {
    this.url = url;
    this.origin = this.url.origin;
    this.base = `${this.origin}/v2/content`;
    this.query = this.url.searchParams;
  }

  get db(): Db {
    return this.service.db;
  }

  now(): number {
    return this.service.clock.now();
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** createdBy/createdDate/lastModifiedBy/lastModifiedDate for a resource the caller creates. */
  createdStamp() {
    const who = this.principal.clientId;
    const now = this.nowIso();
    return { createdBy: who, createdDate: now, lastModifiedBy: who, lastModifiedDate: now };
  }

  /** lastModifiedBy/lastModifiedDate for a change by the caller. */
  modifiedStamp() {
    return { lastModifiedBy: this.principal.clientId, lastModifiedDate: this.nowIso() };
  }

  /** `{base}{path}`: an absolute link on the origin the request came to. */
  href(path: string): string {
    return this.base + path;
  }

  /** The validated body, typed by the route's schema (see schemas/). */
  body<T>(): T {
    return this.input as T;
  }

  /** Validates part of a body against a schema of the family the route's body schema loaded. */
  validate<T>(schema: string, value: unknown): T {
    return validateNow(schema, value) as T;
  }

  /** The first JSON value of the body; undefined when the body is empty. */
  json(): unknown {
    if (!this.bodyParsed) {
      this.parsedBody = parseFirstJsonValue(this.bodyText);
      this.bodyParsed = true;
    }
    return this.parsedBody;
  }

  /** The body as a JSON object; 400 when it is missing or not an object. */
  object(): Record<string, unknown> {
    const body = this.json();
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The request body must be a JSON object', { entity: 'body', invalidValue: body === undefined ? null : body });
    }
    return body as Record<string, unknown>;
  }

  /**
   * Applies the route's ACL requirements to a loaded resource. A caller with no access at all to
   * the hub gets the same 404 as for a missing resource; one with some access but not the
   * required permission gets 403.
   */
  authorize(scope: Scope, entity: string, id: string, route: RouteDef = this.route): void {
    this.aclChecked = true;
    const p = this.principal;
    if (p.admin) return;
    const hubAcl = p.acl('hubs', scope.hubId);
    if (hubAcl !== 'all' && hubAcl.size === 0) throw notFound(entity, id);
    const missing = (route.acl ?? []).filter((req) => !holds(p, scope, req));
    if (missing.length) {
      throw forbidden(`Access denied: requires ${missing.map(describeAcl).join(', ')}`, {
        code: 'ACCESS_DENIED',
        entity,
        property: 'acl',
        invalidValue: missing,
      });
    }
  }

  /** Whether the caller may run operation `op` on a resource: decides which links it sees. */
  can(op: string, scope: Scope): boolean {
    const route = this.service.routeByOp(op);
    if (!route) return false;
    const p = this.principal;
    if (p.admin) return true;
    if (!(route.fn ?? []).every((f) => p.hasFunctional(f))) return false;
    return (route.acl ?? []).every((req) => holds(p, scope, req));
  }
}

function holds(p: Principal, scope: Scope, req: AclRequirement): boolean {
  const [kind, permission] = req.split(':') as [string, string];
  if (kind === 'Hub') return p.hasAcl('hubs', scope.hubId, permission);
  return scope.repoId !== undefined && p.hasAcl('content-repositories', scope.repoId, permission);
}

function describeAcl(req: AclRequirement): string {
  const [kind, permission] = req.split(':');
  return `${kind} - ${permission}`;
}
