import { noContent, ok, type RequestContext, type Reply } from '../core/context.js';
import { parseJournalFilter, type VerifySpec } from '../core/journal.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';

// The request journal (core/journal.ts) over HTTP: list it, clear it, verify against it.

/** GET /__sandbox/requests?method=&path=&status=&clientId=&fault=&after=&limit=&order=oldest|newest */
export function list(ctx: RequestContext): Reply {
  return ok(ctx.service.journal.query(parseJournalFilter((name) => ctx.query.get(name))));
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
