import { packageVersion } from '../core/package-version.js';
import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict, notFound } from '../core/errors.js';
import { advanceClock, clockNow, freezeClock, parseDuration, resumeClock, setClock as setClockTo, REAL_TIME } from '../core/clock.js';
import { stmt } from '../core/statements.js';
import { hashSecret, newGeneration, seedAdminClient, ADMIN_CLIENT_ID } from '../core/seed.js';
import { writeState } from '../core/state.js';
import { signToken } from '../core/auth/tokens.js';
import { grantAcl } from '../core/auth/principal.js';
import { ACL_PERMISSIONS, FUNCTIONAL_PERMISSIONS } from '../core/auth/permissions.js';
import { checkFaultRules, parseFaults, type FaultRule } from '../core/faults.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';

// The sandbox's own admin prefix (/__sandbox): status, reset, clock and clients.

export function status(ctx: RequestContext) {
  const count = (table: string) => stmt(ctx.db, `SELECT count(*) FROM ${table}`).pluck().get() as number;
  const state = ctx.service.clock.current;
  return ok({
    status: 'UP',
    version: packageVersion(),
    // The process serving it: how `cms sandbox stop` proves a pid file's process is this sandbox where the system does not say when a process started.
    pid: process.pid,
    // The database schema: migrations applied, and the newest one (cms version shows both).
    schema: { version: ctx.db.pragma('user_version', { simple: true }), migration: stmt(ctx.db, 'SELECT id FROM migrations ORDER BY rowid DESC LIMIT 1').pluck().get() ?? null },
    storage: ctx.service.options.dataDir === ':memory:' ? 'memory' : 'sqlite',
    tokenLifetimeSeconds: ctx.service.tokenTtlSeconds,
    clock: clockView(state),
    counts: { hubs: count('hubs'), repositories: count('repositories'), clients: count('clients'), pendingTasks: stmt(ctx.db, "SELECT count(*) FROM tasks WHERE state IN ('pending', 'running')").pluck().get() },
  });
}

/** Removes every resource and restricted client; keeps the admin client and the signing key. */
export function reset(ctx: RequestContext) {
  const tables = stmt(ctx.db, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const isShadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const keep = new Set(['migrations', 'sandbox_state']);
  ctx.db.pragma('defer_foreign_keys = ON');
  for (const t of tables) {
    if (keep.has(t.name) || isShadow(t.name)) continue;
    ctx.db.exec(`DELETE FROM "${t.name}"`);
  }
  seedAdminClient(ctx.db);
  writeState(ctx.db, 'clock', REAL_TIME);
  ctx.service.clock.refresh();
  // The journal too (and this request with it: it began before the journal was emptied).
  ctx.service.journal.clear();
  return noContent();
}

export function getClock(ctx: RequestContext) {
  return ok(clockView(ctx.service.clock.current));
}

/** POST /__sandbox/clock {set | advance | freeze | resume | reset}; due work runs before the answer. */
export async function setClock(ctx: RequestContext) {
  const input = ctx.body<Input<typeof schemas.clock>>();
  const clock = ctx.service.clock;
  ctx.db
    .transaction(() => {
      clock.refresh();
      let state = clock.current;
      if (input.set !== undefined) {
        const at = Date.parse(input.set);
        if (Number.isNaN(at)) throw badRequest(`'${input.set}' is not an ISO 8601 date-time`, { property: 'set', invalidValue: input.set });
        state = setClockTo(state, at);
      } else if (input.advance !== undefined) {
        const ms = typeof input.advance === 'number' ? input.advance : parseDuration(input.advance);
        if (ms === null) throw badRequest(`'${input.advance}' is not a duration such as 90m, 2h or 2d`, { property: 'advance', invalidValue: input.advance });
        state = advanceClock(state, ms);
      } else if (input.freeze) state = freezeClock(state);
      else if (input.resume) state = resumeClock(state);
      else if (input.reset) state = REAL_TIME;
      // Past the years a date can be written in, every stamp and the clock itself fail to render.
      const now = clockNow(state);
      if (!(now >= 0 && now <= LATEST_CLOCK)) {
        const property = input.set !== undefined ? 'set' : 'advance';
        throw badRequest(`The clock must stay between 1970-01-01 and 9999-12-31; this ${property} would move it out of that range`, { property, invalidValue: input.set ?? input.advance });
      }
      clock.save(state);
    })
    .immediate();
  await ctx.service.scheduler.runDue();
  return ok(clockView(clock.current));
}

/** The last instant the sandbox clock may show: 9999-12-31T23:59:59.999Z. */
const LATEST_CLOCK = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function clockView(state: { offsetMs: number; frozenAt: number | null }) {
  return { now: new Date(clockNow(state)).toISOString(), frozen: state.frozenAt !== null, offsetMs: state.frozenAt === null ? state.offsetMs : null, realTime: state.frozenAt === null && state.offsetMs === 0 };
}

export function createClient(ctx: RequestContext) {
  const input = ctx.body<Input<typeof schemas.client>>();
  for (const p of input.permissions) {
    if (!(FUNCTIONAL_PERMISSIONS as readonly string[]).includes(p)) {
      throw badRequest(`Unknown functional permission '${p}'`, { entity: 'Client', property: 'permissions', invalidValue: p });
    }
  }
  for (const entry of input.acl) {
    for (const p of entry.permissions) {
      if (!ACL_PERMISSIONS[entry.resource].includes(p)) {
        throw badRequest(`'${p}' is not an ACL permission of ${entry.resource}; use ${ACL_PERMISSIONS[entry.resource].join(', ')}`, { entity: 'Client', property: 'acl', invalidValue: p });
      }
    }
  }
  if (stmt(ctx.db, 'SELECT 1 FROM clients WHERE id = ?').get(input.id)) {
    throw conflict(`A client '${input.id}' already exists`, { entity: 'Client', property: 'id', invalidValue: input.id });
  }
  stmt(ctx.db, 'INSERT INTO clients (id, secret_hash, admin, permissions, label, created_date, generation) VALUES (?, ?, 0, ?, ?, ?, ?)').run(
    input.id,
    hashSecret(input.secret),
    JSON.stringify(input.permissions),
    input.label ?? null,
    ctx.nowIso(),
    newGeneration(),
  );
  for (const entry of input.acl) grantAcl(ctx.db, input.id, entry.resource, entry.id, entry.permissions);
  return created(clientView(ctx, input.id), ctx.origin + `/__sandbox/clients/${encodeURIComponent(input.id)}`);
}

export function listClients(ctx: RequestContext) {
  const ids = stmt(ctx.db, 'SELECT id FROM clients ORDER BY created_date, id').pluck().all() as string[];
  return ok({ clients: ids.map((id) => clientView(ctx, id)) });
}

export function removeClient(ctx: RequestContext) {
  const id = ctx.params.clientId!;
  if (id === ADMIN_CLIENT_ID) throw badRequest('The sandbox admin client cannot be removed', { property: 'id', invalidValue: id });
  if (stmt(ctx.db, 'DELETE FROM clients WHERE id = ?').run(id).changes === 0) throw notFound('Client', id);
  return noContent();
}

/** The longest a minted personal access token lives: a year, as the hosted service's longest. */
const MAX_TOKEN_SECONDS = 366 * 24 * 3600;

/**
 * POST /__sandbox/clients/{id}/tokens: a personal access token for the client, as organisations
 * with single sign-on issue them. It expires on the sandbox clock (advance it to see the expiry),
 * and like every token it dies with its client.
 */
export function mintToken(ctx: RequestContext) {
  const id = ctx.params.clientId!;
  const input = ctx.body<Input<typeof schemas.clientToken>>();
  const row = stmt(ctx.db, 'SELECT generation FROM clients WHERE id = ?').get(id) as { generation: string } | undefined;
  if (!row) throw notFound('Client', id);
  const given = input.expiresIn ?? '1h';
  const ms = typeof given === 'number' ? given * 1000 : parseDuration(given);
  if (ms === null || !(ms >= 1000) || ms > MAX_TOKEN_SECONDS * 1000) {
    throw badRequest(`expiresIn '${String(given).slice(0, 32)}' must be a duration from 1s to 366d (e.g. 1h, 30d) or seconds`, { entity: 'ClientToken', property: 'expiresIn', invalidValue: given });
  }
  const seconds = Math.ceil(ms / 1000);
  const now = ctx.now();
  const token = signToken(ctx.service.signingKey, id, row.generation, now, seconds, true);
  return ok({ clientId: id, access_token: token, token_type: 'bearer', expires_in: seconds, expiresAt: new Date(Math.ceil(now / 1000) * 1000 + seconds * 1000).toISOString() });
}

/** A client as shown to the admin: never its secret. */
function clientView(ctx: RequestContext, id: string) {
  const row = stmt(ctx.db, 'SELECT id, admin, permissions, label, created_date FROM clients WHERE id = ?').get(id) as {
    id: string;
    admin: number;
    permissions: string;
    label: string | null;
    created_date: string;
  };
  const acl = stmt(ctx.db, 'SELECT resource_type, resource_id, permission FROM acl WHERE client_id = ? ORDER BY resource_type, resource_id, permission').all(id) as {
    resource_type: string;
    resource_id: string;
    permission: string;
  }[];
  const grouped = new Map<string, { resource: string; id: string; permissions: string[] }>();
  for (const a of acl) {
    const key = `${a.resource_type}/${a.resource_id}`;
    if (!grouped.has(key)) grouped.set(key, { resource: a.resource_type, id: a.resource_id, permissions: [] });
    grouped.get(key)!.permissions.push(a.permission);
  }
  return {
    id: row.id,
    label: row.label,
    admin: row.admin === 1,
    permissions: row.admin === 1 ? [...FUNCTIONAL_PERMISSIONS] : (JSON.parse(row.permissions) as string[]),
    acl: [...grouped.values()],
    createdDate: row.created_date,
  };
}

export function getFaults(ctx: RequestContext) {
  return ok(ctx.service.faults.report());
}

/** Replaces the injected faults (rules, or a spec such as `429 10%; 503 5% on POST /v2/content/**`). */
export function setFaults(ctx: RequestContext) {
  const input = ctx.body<Input<typeof schemas.faults>>();
  let rules: FaultRule[];
  try {
    rules = input.spec !== undefined ? parseFaults(input.spec) : (input.rules as FaultRule[]);
  } catch (err) {
    throw badRequest((err as Error).message, { entity: 'Faults', property: 'spec', invalidValue: input.spec });
  }
  // Structured rules get the one check parseFaults gives a spec: bounded numbers, a rule that can match.
  const problem = input.spec === undefined ? checkFaultRules(rules) : null;
  if (problem) throw badRequest(`rule ${problem.index}: ${problem.message}`, { entity: 'Faults', property: `rules.${problem.index}`, invalidValue: rules[problem.index] });
  ctx.service.faults.configure(rules, input.seed);
  return ok(ctx.service.faults.report());
}

export function clearFaults(ctx: RequestContext) {
  ctx.service.faults.configure([]);
  return noContent();
}
