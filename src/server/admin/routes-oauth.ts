import { ok, type RequestContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { signToken } from '../core/auth/tokens.js';
import { secretMatches } from '../core/seed.js';
import { stmt } from '../core/statements.js';

/**
 * POST /oauth/token: client credentials as form fields or HTTP Basic. A field the body does not
 * name is read from the query string: the vendor's demo tools (dc-demostore-integration and its
 * CLI) POST `/oauth/token?client_id=…&client_secret=…&grant_type=client_credentials` with a body
 * of `{}`, which the hosted service answers.
 */
export function issueToken(ctx: RequestContext) {
  const form = readForm(ctx);
  for (const field of ['grant_type', 'client_id', 'client_secret']) {
    const fromQuery = ctx.query.get(field);
    if (!form.has(field) && fromQuery !== null) form.set(field, fromQuery);
  }
  const grantType = form.get('grant_type');
  if (grantType !== 'client_credentials') {
    throw badRequest(`Unsupported grant_type '${grantType ?? ''}'; use client_credentials`, {
      code: 'unsupported_grant_type',
      property: 'grant_type',
      invalidValue: grantType ?? null,
    });
  }
  let clientId = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^basic\s+(\S+)$/i.exec(ctx.req.header('authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      clientId = safeDecode(decoded.slice(0, colon));
      secret = safeDecode(decoded.slice(colon + 1));
    }
  }
  const client = clientId && secret ? verifiedClient(ctx, clientId, secret) : null;
  if (!clientId || !client) {
    throw badRequest('Invalid client credentials', { code: 'invalid_client', property: 'client_id', invalidValue: clientId ?? null });
  }
  const ttl = ctx.service.tokenTtlSeconds;
  return ok({
    // Lifetimes run on wall-clock time, not the sandbox clock (wire contract 3): moving the clock
    // must not expire the tokens clients hold.
    access_token: signToken(ctx.service.signingKey, clientId, client.generation, Date.now(), ttl),
    token_type: 'bearer',
    expires_in: ttl,
    session_expires_in: 0,
  });
}

function readForm(ctx: RequestContext): URLSearchParams {
  const type = ctx.req.header('content-type') ?? '';
  if (/json/i.test(type)) {
    const body = ctx.json();
    const form = new URLSearchParams();
    if (body && typeof body === 'object') for (const [k, v] of Object.entries(body)) if (typeof v === 'string') form.set(k, v);
    return form;
  }
  return new URLSearchParams(ctx.bodyText);
}

/** The client the credentials name, with its generation; null when unknown or the secret is wrong. */
function verifiedClient(ctx: RequestContext, clientId: string, secret: string): { generation: string } | null {
  const row = stmt(ctx.db, 'SELECT secret_hash, generation FROM clients WHERE id = ?').get(clientId) as { secret_hash: string; generation: string } | undefined;
  return row && secretMatches(row.secret_hash, secret) ? { generation: row.generation } : null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
