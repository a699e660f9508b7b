import { noContent, ok, type RequestContext, type Reply } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { MAX_GLOB_LENGTH } from '../core/glob.js';
import { MAX_JOURNAL_PAGE, type JournalFilter, type VerifySpec } from '../core/journal.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';

// The request journal (core/journal.ts) over HTTP: list it, clear it, verify against it.

/** GET /__sandbox/requests?method=&path=&status=&clientId=&fault=&after=&limit=&order=oldest|newest */
export function list(ctx: RequestContext): Reply {
  return ok(ctx.service.journal.query(journalFilter(ctx.query)));
}

/** DELETE /__sandbox/requests: empties the journal alone (reset empties it with everything else). */
export function clear(ctx: RequestContext): Reply {
  ctx.service.journal.clear();
  return noContent();
}

/** POST /__sandbox/requests/verify: 200 when the journal holds the expected count, else 417 with the nearest misses (as WireMock). */
export function verify(ctx: RequestContext): Reply {
  const spec = ctx.body<Input<typeof schemas.verify>>() as VerifySpec;
  const result = ctx.service.journal.verify(spec);
  return { status: result.ok ? 200 : 417, body: result };
}

/** The journal filter of a query string; a malformed value is a 400 naming it. */
function journalFilter(q: URLSearchParams): JournalFilter {
  const f: JournalFilter = {};
  const method = q.get('method');
  if (method !== null) {
    if (!/^([A-Za-z]{1,16}|\*)$/.test(method)) throw badRequest('method must be an HTTP method or *', { property: 'method', invalidValue: method });
    f.method = method;
  }
  const path = q.get('path');
  if (path !== null) {
    if (!path.startsWith('/') || path.length > MAX_GLOB_LENGTH) throw badRequest(`path must be a glob starting with / (at most ${MAX_GLOB_LENGTH} characters)`, { property: 'path', invalidValue: path.slice(0, 200) });
    f.path = path;
  }
  const status = q.get('status');
  if (status !== null) {
    if (!/^(\d{3}|[1-5]xx|dropped)$/i.test(status)) throw badRequest('status must be a status (404), a class (4xx) or dropped', { property: 'status', invalidValue: status.slice(0, 200) });
    f.status = status;
  }
  const clientId = q.get('clientId');
  if (clientId !== null) f.clientId = clientId;
  const fault = q.get('fault');
  if (fault !== null) {
    if (fault !== 'true' && fault !== 'false') throw badRequest('fault must be true or false', { property: 'fault', invalidValue: fault.slice(0, 200) });
    f.fault = fault === 'true';
  }
  const after = q.get('after');
  if (after !== null) {
    if (!/^\d{1,15}$/.test(after)) throw badRequest('after must be a request id (a whole number)', { property: 'after', invalidValue: after.slice(0, 200) });
    f.after = Number(after);
  }
  const limit = q.get('limit');
  if (limit !== null) {
    if (!/^\d{1,7}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_JOURNAL_PAGE) throw badRequest(`limit must be between 1 and ${MAX_JOURNAL_PAGE}`, { property: 'limit', invalidValue: limit.slice(0, 200) });
    f.limit = Number(limit);
  }
  const order = q.get('order');
  if (order !== null) {
    if (order !== 'newest' && order !== 'oldest') throw badRequest('order must be oldest (the first requests, default) or newest (the last ones)', { property: 'order', invalidValue: order.slice(0, 200) });
    f.last = order === 'newest';
  }
  return f;
}
