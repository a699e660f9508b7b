import type { Db } from './core/db.js';
import { stmt } from './core/statements.js';
import { openDatabase } from './core/db.js';
import { migrations } from './migrations.js';
import { Router } from './core/router.js';
import { routes, type RouteDef } from './core/route-table.js';
import { families, schemaFamilies, taskKinds, type Handler } from './families.js';
import { RequestContext, type Reply, type ServiceHost } from './core/context.js';
import { ServiceError, forbidden, serviceError, unauthorized } from './core/errors.js';
import { acceptsJson, assertJsonContentType } from './core/body.js';
import { SandboxClock } from './core/clock-store.js';
import { Scheduler } from './core/scheduler.js';
import { Principal } from './core/auth/principal.js';
import { tokenExpired, verifyToken, type TokenClaims } from './core/auth/tokens.js';
import type { Statement } from 'better-sqlite3';
import { signingKey } from './core/state.js';
import { validateBody } from './core/body-schemas.js';
import { Caches } from './core/caches.js';
import { IDEMPOTENCY_HEADER, remember, replayed } from './core/idempotency.js';
import { DELIVERY_HEADER, withoutEvents } from './webhooks/store.js';
import { DroppedConnection } from './core/dropped.js';
import { assertReachable } from './core/host.js';
import { FaultInjector, type FaultDecision, type FaultRule } from './core/faults.js';
import type { ServiceRequest, ServiceResponse } from './core/exchange.js';
import { PUBLIC_MAX_BODY_BYTES, bodyTooLarge } from './core/body-budget.js';
import { takeChangedItems } from './items/written.js';
import { WriteBatch } from './core/write-batch.js';
import { RequestJournal, type Answered } from './core/journal.js';
import { inspectSnapshot, restoreSnapshot, saveSnapshot, type SnapshotInfo } from './core/snapshot-file.js';
import { packageVersion } from './core/package-version.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServiceOptions {
  /** Faults to inject (cms sandbox serve --faults), and the seed that makes them repeatable. */
  faults?: FaultRule[];
  faultSeed?: number;
  /** Data directory holding sandbox.db, or ':memory:'. */
  dataDir: string;
  /** Access token lifetime in seconds (default 300, or CMS_SANDBOX_TOKEN_TTL). */
  tokenTtlSeconds?: number;
  /** Start from this serialized database (in memory): what the programmatic API's snapshots restore. */
  database?: Buffer;
  /** The fault injector to use (shared with the service this one replaces), instead of a new one. */
  faultInjector?: FaultInjector;
  /** Where named snapshots live (default: <dataDir>/snapshots; a temporary directory in memory mode, removed on close). */
  snapshotDir?: string;
  /** Reports unexpected errors (serve mode prints them; the embedded CLI stays quiet). */
  onError?: (err: unknown, req: { method: string; url: string }) => void;
  /** How many requests the journal holds (default 1000; the oldest go first). */
  journalSize?: number;
  /** The request journal to record into (shared with the service this one replaces), instead of a new one. */
  journal?: RequestJournal;
  /** Webhook destinations the user allows besides public addresses (webhooks/destinations.ts): host names, addresses, CIDR ranges or *. */
  allowWebhookTo?: string[];
}

/** What the journal learns of a request while it is answered. */
interface Trace {
  op: string | null;
  clientId: string | null;
  fault: string | null;
  bodyText?: string;
}

/** The journal's own endpoints: reading it does not add to it. */
const JOURNAL_PATH = '/__sandbox/requests';

const JSON_TYPE = 'application/hal+json;charset=UTF-8';
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/**
 * Operations whose writes touch only content items (store/items.ts saveItem/touchItem, which
 * note the ids) and their derived rows: after them the rest of the cached state stays valid.
 */
const ITEM_WRITES = /^items\./;

/** The sandbox service: one handler from Request to Response, used in-process and by `serve`. */
export class Service implements ServiceHost {
  readonly db: Db;
  readonly clock: SandboxClock;
  readonly scheduler: Scheduler;
  readonly tokenTtlSeconds: number;
  readonly faults: FaultInjector;
  /** The requests this service answered, redacted and bounded (GET /__sandbox/requests). */
  readonly journal: RequestJournal;
  private readonly router = new Router(routes);
  private readonly byOp = new Map<string, RouteDef>();
  private key: Buffer;
  /** The temporary snapshot directory of a memory-mode sandbox, removed on close. */
  private ownSnapshotDir: string | null = null;
  /** Verified tokens (signature and claims), so a repeated token costs no HMAC. */
  private readonly verified = new Map<string, TokenClaims>();
  /** Principals by client id, valid until the data changes. */
  private readonly principals = new Map<string, Principal | null>();
  /** Families' caches (item rows for GET item, the hot read), valid until the data changes. */
  readonly caches = new Caches();
  private readonly dataVersion: Statement;
  private readonly inTransaction: ReturnType<typeof transactionRunner>;
  /** Writes that arrive together commit together (group commit); see write-batch.ts. */
  private readonly writes: WriteBatch;
  private seenDataVersion = -1;
  private changedHere = true;
  private itemsChangedHere = false;
  /**
   * In memory: the state held under a savepoint (hold), so returning to it rolls back only what
   * changed since (rollbackTo): the fixture's restore between tests. Null: none held.
   */
  private held: string | null = null;

  constructor(readonly options: ServiceOptions) {
    this.db = openDatabase({ dataDir: options.dataDir, migrations, buffer: options.database });
    // A snapshot file's bytes carry its marker table: not part of a live sandbox.
    if (options.database) {
      this.db.exec('DROP TABLE IF EXISTS sandbox_snapshot');
      requeueRunning(this.db);
    }
    this.clock = new SandboxClock(this.db);
    this.scheduler = new Scheduler(this, taskKinds);
    this.key = signingKey(this.db);
    this.tokenTtlSeconds = options.tokenTtlSeconds ?? (Number(process.env.CMS_SANDBOX_TOKEN_TTL) || 300);
    for (const r of routes) if (!this.byOp.has(r.op)) this.byOp.set(r.op, r);
    this.dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    this.inTransaction = transactionRunner(this.db);
    this.writes = new WriteBatch(this.db, () => this.markChanged());
    this.faults = options.faultInjector ?? new FaultInjector(options.faultSeed);
    if (options.faults && !options.faultInjector) this.faults.configure(options.faults, options.faultSeed);
    // Shared like the fault injector with the service a restore puts in this one's place: the journal observes the server.
    this.journal = options.journal ?? new RequestJournal(options.journalSize);
  }

  /**
   * Records that this process changed the data: cached state is re-read on the next request.
   * `itemsOnly`: the change wrote content items (and what derives from them: versions, links,
   * the index, event deliveries) and nothing else, so only those items' rows are dropped.
   */
  markChanged(itemsOnly = false): void {
    // Dropped now, not at the next request: the scheduler may change items mid-request.
    const written = takeChangedItems(this.db);
    if (itemsOnly) {
      this.caches.evict(written);
      this.itemsChangedHere = true;
      return;
    }
    this.changedHere = true;
    // Cleared now, not at the next request: the scheduler may change items mid-request.
    this.caches.clear();
  }

  /** Runs what is due now (the serve mode timer), seeing changes other processes made. */
  async tick(): Promise<void> {
    this.writes.commit();
    this.writes.commitOthers();
    this.syncCaches();
    await this.scheduler.runDue();
  }

  /**
   * Cached state (clock, principals, when work is next due) stays valid until the data changes:
   * here (markChanged) or in another process on the same directory (SQLite's data_version).
   */
  private syncCaches(): void {
    const version = this.dataVersion.get() as number;
    if (version === this.seenDataVersion && !this.changedHere) {
      // An item write may have enqueued deliveries: only when work is next due must be read again.
      if (this.itemsChangedHere) this.scheduler.forgetNextDue();
      this.itemsChangedHere = false;
      return;
    }
    // Another process may have restored a snapshot with another signing key.
    if (version !== this.seenDataVersion && this.seenDataVersion !== -1) {
      const key = signingKey(this.db);
      if (!key.equals(this.key)) {
        this.key = key;
        this.verified.clear();
      }
    }
    this.seenDataVersion = version;
    this.changedHere = false;
    this.itemsChangedHere = false;
    this.clock.refresh();
    this.principals.clear();
    this.caches.clear();
    this.scheduler.forgetNextDue();
  }

  get signingKey(): Buffer {
    return this.key;
  }

  routeByOp(op: string): RouteDef | undefined {
    return this.byOp.get(op);
  }

  /** The service over WHATWG Request/Response: what `cms sandbox serve` and tests use. */
  readonly fetch = async (req: Request): Promise<Response> => {
    const reply = await this.handle({ method: req.method, url: req.url, header: (name) => req.headers.get(name), text: () => req.text() });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };

  /**
   * The whole service: one request in, one response out (DroppedConnection for an injected drop).
   * Every request passes here, so here it is journaled: answered, refused (401, 404, 413), faulted
   * or dropped. Reading the journal itself (/__sandbox/requests) is not journaled: following it
   * would fill it.
   */
  readonly handle = async (req: ServiceRequest): Promise<ServiceResponse> => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const mark = this.journal.mark();
    const trace: Trace = { op: null, clientId: null, fault: null };
    let url: URL | null = null;
    let status: number | null = null;
    try {
      url = req.parsedUrl ?? new URL(req.url);
      // CORS is decided before anything else answers, so refusals and faults carry it too.
      const cors = req.cors?.enabled ? this.corsFor(req, url) : null;
      const res = cors?.preflight ? { status: 204, headers: cors.headers, body: null } : await this.answer(req, url, trace);
      if (cors && !cors.preflight) res.headers = { ...res.headers, ...cors.headers, ...(res.headers.Vary ? { Vary: `${res.headers.Vary}, Origin` } : {}) };
      status = res.status;
      return res;
    } finally {
      // The journal never fails a request: an entry it cannot record is left out.
      if (url && !url.pathname.startsWith(JOURNAL_PATH)) {
        this.recordAnswered(
          {
            startedAt,
            method: req.method,
            path: url.pathname,
            search: url.search,
            status,
            durationMs: performance.now() - t0,
            fault: trace.fault,
            clientId: trace.clientId,
            op: trace.op,
            bodyText: trace.bodyText,
            contentType: trace.bodyText ? req.header('content-type') : null,
          },
          mark,
        );
      }
    }
  };

  /**
   * The CORS headers due to this request (core/host.ts CorsPolicy decides from the route), and
   * whether it is a preflight (OPTIONS naming the method it asks for), or null.
   */
  private corsFor(req: ServiceRequest, url: URL): { preflight: boolean; headers: Record<string, string> } | null {
    const origin = req.header('origin');
    if (!origin) return null;
    const asked = req.method === 'OPTIONS' ? req.header('access-control-request-method') : null;
    if (req.method === 'OPTIONS' && (!asked || asked.length > 16)) return null;
    const found = this.router.match(asked ?? req.method, url.pathname);
    const headers = req.cors!.headers('route' in found ? found.route : undefined, req.reach, origin, asked !== null);
    return headers && { preflight: asked !== null, headers };
  }

  private recordAnswered(answered: Answered, mark: number): void {
    try {
      this.journal.record(answered, mark);
    } catch (err) {
      this.options.onError?.(err, { method: answered.method, url: answered.path });
    }
  }

  private async answer(req: ServiceRequest, url: URL, trace: Trace): Promise<ServiceResponse> {
    try {
      const injected = this.faults.decide(req.method, url.pathname);
      if (injected.length) {
        trace.fault = injected.map((d) => (d.kind === 'status' ? String(d.status) : d.kind === 'latency' ? `latency ${d.ms}ms` : 'drop')).join(', ');
        const reply = await applyFaults(injected);
        if (reply) return toResponse(reply);
      }
      return toResponse(await this.route(req, url, trace));
    } catch (err) {
      if (err instanceof DroppedConnection) throw err;
      if (err instanceof ServiceError) return toResponse({ status: err.status, body: err.toBody(), headers: err.headers });
      this.options.onError?.(err, req);
      return toResponse({ status: 500, body: serviceError(500, { message: 'The sandbox failed to handle the request' }).toBody() });
    }
  }

  private async route(req: ServiceRequest, url: URL, trace: Trace): Promise<Reply> {
    const found = this.router.match(req.method, url.pathname);
    // Which Host reaches which routes: decided in one place (core/host.ts), before anything else.
    assertReachable('route' in found ? found.route : undefined, req.reach, url.pathname);
    if (!('route' in found)) {
      if (found.allowed.length) {
        throw serviceError(405, { message: `Method ${req.method} is not allowed here; use ${found.allowed.join(', ')}`, invalidValue: req.method }, { Allow: found.allowed.join(', ') });
      }
      throw serviceError(404, { message: `No resource at ${url.pathname}`, invalidValue: url.pathname });
    }
    const { route, params } = found;
    trace.op = route.op;
    if (!route.html && !acceptsJson(req.header('accept'))) {
      throw serviceError(406, { message: 'This resource is only available as application/hal+json', property: 'Accept', invalidValue: req.header('accept') });
    }
    this.syncCaches();
    // Another service of this process on the same database must not hold the write lock while
    // this request's scheduled work or write waits for it on this one thread.
    this.writes.commitOthers();
    const ctx = new RequestContext(this, req, url, route, params);
    if (!route.public) {
      this.authenticate(ctx);
      trace.clientId = ctx.principal.clientId;
    }
    if (route.sandboxAdmin && !ctx.principal.admin) {
      throw forbidden('Only the sandbox admin client may use the /__sandbox endpoints', { code: 'ACCESS_DENIED' });
    }
    for (const f of route.fn ?? []) {
      if (!ctx.principal.hasFunctional(f)) {
        throw forbidden(`Access denied: requires the functional permission ${f}`, { code: 'ACCESS_DENIED', property: 'permission', invalidValue: f });
      }
    }
    // The body is read only now: an unknown or forbidden caller is refused without it, and
    // public routes take small bodies.
    if (BODY_METHODS.has(req.method)) {
      ctx.bodyText = await readBody(req, route.public ? PUBLIC_MAX_BODY_BYTES : MAX_BODY_BYTES);
      trace.bodyText = ctx.bodyText;
      if (route.op === 'oauth.issueToken') trace.clientId = tokenClientId(req, ctx.bodyText);
      this.syncCaches();
    }
    if (route.op !== 'oauth.issueToken' && !route.textBody) assertJsonContentType(req.header('content-type'), ctx.bodyText);

    // Due jobs (publishing, localization, bulk work, webhook deliveries) run before the request
    // is answered, so the embedded mode needs no daemon and every answer reflects the clock.
    await this.scheduler.runDue();

    if (route.body) ctx.input = await validateBody(schemaFamilies, route.body, ctx.json() ?? {});

    const handler = await loadHandler(route);
    const idempotencyKey = req.method === 'POST' && !route.public ? req.header(IDEMPOTENCY_HEADER) : null;
    if (idempotencyKey) {
      const previous = replayed(this.db, ctx.principal.clientId, idempotencyKey, req.method, url.pathname + url.search, ctx.bodyText);
      // The first request may still be in the open batch: its replay is answered once that commits.
      if (previous) return this.writes.after(previous);
    }
    if (route.async) {
      this.writes.commit();
      this.markChanged();
      return handler(ctx);
    }
    // Reads need no transaction: each statement sees one consistent snapshot (pages are one
    // statement). Writes not yet committed are committed first: a read never sees one that might be undone.
    if (req.method === 'GET' || route.reads) {
      this.writes.commit();
      return checkedReply(handler, ctx);
    }
    const write = () => this.inTransaction.immediate(handler, ctx, idempotencyKey);
    let committed: Promise<Reply>;
    try {
      // A webhook delivery (its own or another sandbox's) changes content but triggers no deliveries: no loops.
      committed = this.writes.run(req.header(DELIVERY_HEADER) ? () => withoutEvents(this.db, write) : write);
    } finally {
      // Now, not once committed: a read in between commits the batch first and must not find the old row cached.
      this.markChanged(ITEM_WRITES.test(route.op));
    }
    return committed;
  }

  /** Sets ctx.principal from the bearer token (401 when missing or invalid); public routes that also take a token call it themselves. */
  authenticate(ctx: RequestContext): void {
    const header = ctx.req.header('authorization');
    const m = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) throw unauthorized(header ? 'The Authorization header must be "Bearer <token>"' : 'Full authentication is required to access this resource');
    const token = m[1]!;
    let claims = this.verified.get(token);
    if (!claims) {
      // Wall-clock time, not the sandbox clock: moving the clock expires no token (wire contract 3);
      // only the personal access tokens the sandbox mints expire on its clock (tokenExpired).
      const check = verifyToken(this.key, token, Date.now(), this.clock.now());
      if (!check.ok) {
        throw unauthorized(
          check.reason === 'expired' ? 'The access token has expired; request a new one' : check.reason === 'undecodable' ? 'The access token could not be decoded' : 'The access token is not valid',
        );
      }
      claims = check.claims;
      if (this.verified.size >= 1000) this.verified.clear();
      this.verified.set(token, claims);
    }
    // Checked again: the token may have been verified (and cached) before it expired.
    if (tokenExpired(claims, Date.now(), this.clock.now())) throw unauthorized('The access token has expired; request a new one');
    let principal = this.principals.get(claims.sub);
    if (principal === undefined) {
      principal = Principal.load(this.db, claims.sub);
      this.principals.set(claims.sub, principal);
    }
    // A deleted client stays dead: a client created again with its id has another generation.
    if (!principal || principal.generation !== (claims.gen ?? '')) throw unauthorized('The access token is not valid');
    ctx.principal = principal;
  }

  /** Waits for background work (webhook deliveries) to settle; used before a CLI process exits. */
  async idle(timeoutMs = 10_000): Promise<void> {
    await this.scheduler.idle(timeoutMs);
  }

  /** Where named snapshots live (created on first use). */
  get snapshotDir(): string {
    if (this.options.snapshotDir) return this.options.snapshotDir;
    if (this.options.dataDir !== ':memory:') return join(this.options.dataDir, 'snapshots');
    // tmpfs where there is one: snapshots of a memory sandbox need not reach a disk.
    return (this.ownSnapshotDir ??= mkdtempSync(join(process.platform === 'linux' ? '/dev/shm' : tmpdir(), 'cms-snapshots-')));
  }

  /** Writes a snapshot of everything to `file` (pending batched writes included). */
  saveSnapshot(file: string, { force = false }: { force?: boolean } = {}): SnapshotInfo {
    this.release();
    return saveSnapshot(this.db, file, packageVersion(), { force });
  }

  /** What the snapshot in `file` holds, checked as a restore checks it (SnapshotError when it is refused). */
  inspectSnapshot(file: string): SnapshotInfo {
    return inspectSnapshot(file, migrations).info;
  }

  /** The whole database as bytes (pending batched writes included): an in-memory snapshot. */
  serialize(): Buffer {
    this.release();
    return this.db.serialize();
  }

  /** Replaces everything with the snapshot in `file`; cached state (signing key, clock, tokens) is read again. */
  restoreSnapshot(file: string): SnapshotInfo {
    this.release();
    const info = restoreSnapshot(this.db, file, migrations);
    this.afterRestore();
    return info;
  }

  /**
   * Holds the present state as `name` (in memory only; elsewhere a no-op): every write from now
   * on runs inside one savepoint, and rollbackTo(name) undoes them. A restore then costs what the
   * test changed, not a copy of the whole database, and keeps every cache and prepared statement.
   */
  hold(name: string): void {
    this.release();
    if (this.options.dataDir !== ':memory:') return;
    this.db.exec('SAVEPOINT cms_held');
    this.held = name;
  }

  /**
   * Returns to the state held as `name`: true, or false (nothing changed) when another state or
   * none is held, or when a delivery is still under way (its outcome would land in the state
   * returned to; the caller restores by copy, and the delivery finishes on the copy it started in).
   */
  rollbackTo(name: string): boolean {
    if (this.held !== name) return false;
    // A batch not yet committed belongs to the state being undone: committed into the savepoint first.
    this.writes.commit();
    if (!this.db.inTransaction || this.scheduler.busy) {
      this.release();
      return false;
    }
    this.db.exec('ROLLBACK TO cms_held');
    this.afterRestore();
    return true;
  }

  /** Keeps what was written since the held state (the savepoint is released): before anything that must run outside a transaction. */
  private release(): void {
    this.writes.commit();
    if (this.held === null) return;
    this.held = null;
    // SQLite may have rolled the whole transaction back (out of memory): then there is nothing to release.
    if (this.db.inTransaction) this.db.exec('RELEASE cms_held');
  }

  private afterRestore(): void {
    requeueRunning(this.db);
    const key = signingKey(this.db);
    // Tokens verified under this key stay verified (whether their client still exists is the principal's check).
    if (!key.equals(this.key)) this.verified.clear();
    this.key = key;
    this.markChanged();
    this.clock.refresh();
  }

  close(): void {
    this.scheduler.stop();
    if (this.db.open) this.release();
    if (this.db.open) this.db.close();
    if (this.ownSnapshotDir) rmSync(this.ownSnapshotDir, { recursive: true, force: true });
    this.ownSnapshotDir = null;
  }
}

/**
 * After a restore, nothing is under way: a delivery a snapshot caught mid-attempt (running, with
 * a minute's lease) belonged to the process that saved it, so it is due again now (sent at least
 * once, as a retry is), not when that lease would have run out.
 */
function requeueRunning(db: Db): void {
  stmt(db, "UPDATE tasks SET state = 'pending', lease_until = NULL WHERE state = 'running'").run();
}

/**
 * Runs a mutating handler in one transaction (created once: better-sqlite3 builds the wrapper
 * per call otherwise), and stores the reply for an Idempotency-Key in the same transaction.
 */
function transactionRunner(db: Db) {
  return db.transaction((handler: Handler, ctx: RequestContext, idempotencyKey: string | null): Reply => {
    const reply = checkedReply(handler, ctx);
    if (idempotencyKey) remember(db, ctx.principal.clientId, idempotencyKey, ctx.req.method, ctx.url.pathname + ctx.url.search, ctx.bodyText, reply);
    return reply;
  });
}

/** Runs a synchronous handler and checks it applied its route's ACLs. */
function checkedReply(handler: Handler, ctx: RequestContext): Reply {
  const reply = handler(ctx) as Reply;
  if (ctx.route.acl && !ctx.aclChecked && reply.status < 400) throw new Error(`${ctx.route.op} did not apply its ACL requirements`);
  return reply;
}

async function readBody(req: ServiceRequest, limit: number): Promise<string> {
  const len = Number(req.header('content-length') ?? 0);
  if (len > limit) throw bodyTooLarge(limit);
  const text = await req.text(limit);
  if (text.length > limit) throw bodyTooLarge(limit);
  return text;
}

const loaded = new Map<string, Handler>();

async function loadHandler(route: RouteDef): Promise<Handler> {
  let handler = loaded.get(route.op);
  if (!handler) {
    const [family, name] = route.op.split('.') as [string, string];
    const mod = await families[family]!();
    handler = mod[name];
    if (!handler) throw new Error(`route ${route.op} has no handler`);
    loaded.set(route.op, handler);
  }
  return handler;
}

/** Applies injected faults: a delay, an error answer, or a dropped connection (DroppedConnection). */
async function applyFaults(decisions: FaultDecision[]): Promise<Reply | null> {
  for (const d of decisions) {
    if (d.kind === 'latency') await new Promise((r) => setTimeout(r, d.ms));
    else if (d.kind === 'drop') throw new DroppedConnection();
    else {
      const headers: Record<string, string> = d.retryAfterSeconds !== undefined ? { 'Retry-After': String(d.retryAfterSeconds) } : {};
      return { status: d.status, headers, body: serviceError(d.status, { code: 'INJECTED_FAULT', message: `Injected fault: ${d.status}` }).toBody() };
    }
  }
  return null;
}

function toResponse(reply: Reply): ServiceResponse {
  if (reply.json !== undefined) return { status: reply.status, headers: { ...reply.headers, 'Content-Type': JSON_TYPE }, body: reply.json };
  if (reply.raw) return { status: reply.status, headers: { ...reply.headers, 'Content-Type': reply.raw.contentType }, body: reply.raw.text };
  if (reply.status === 204 || reply.body === undefined) return { status: reply.status, headers: { ...reply.headers }, body: null };
  return { status: reply.status, headers: { ...reply.headers, 'Content-Type': JSON_TYPE }, body: JSON.stringify(reply.body) };
}

/** The client a token request names (form field or Basic credentials), as claimed: the status says whether it was granted. */
function tokenClientId(req: ServiceRequest, body: string): string | null {
  const basic = /^basic\s+(\S+)/i.exec(req.header('authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return safeDecode(decoded.slice(0, colon)).slice(0, 128);
  }
  try {
    return new URLSearchParams(body).get('client_id')?.slice(0, 128) ?? null;
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
