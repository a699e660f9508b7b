import { timingSafeEqual } from 'node:crypto';
import { ok, type RequestContext } from '../context.js';
import { badRequest } from '../errors.js';
import { signToken } from '../auth/tokens.js';
import { hashSecret } from '../store/seed.js';
import { stmt } from '../store/statements.js';

/** POST /oauth/token: client credentials as form fields or HTTP Basic. */
export function issueToken(ctx: RequestContext) {
  const form = readForm(ctx);
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
  if (!clientId || !secret || !validSecret(ctx, clientId, secret)) {
    throw badRequest('Invalid client credentials', { code: 'invalid_client', property: 'client_id', invalidValue: clientId ?? null });
  }
  const ttl = ctx.service.tokenTtlSeconds;
  return ok({
    access_token: signToken(ctx.service.signingKey, clientId, ctx.now(), ttl),
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

function validSecret(ctx: RequestContext, clientId: string, secret: string): boolean {
  const stored = stmt(ctx.db, 'SELECT secret_hash FROM clients WHERE id = ?').pluck().get(clientId) as string | undefined;
  if (!stored) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(hashSecret(secret));
  return a.length === b.length && timingSafeEqual(a, b);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
