import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Access tokens are HS256 JWTs signed with this sandbox's own key, so any process on the same
// data directory can check them without a lookup, and a token from another sandbox is unknown.

export interface TokenClaims {
  sub: string;
  /** The client's generation when the token was issued (absent in tokens from before it existed). */
  gen?: string;
  iat: number;
  exp: number;
  jti: string;
  /** A personal access token minted by the sandbox: it expires on the sandbox clock, and is never refreshed. */
  pat?: true;
}

const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signToken(key: Buffer, clientId: string, generation: string, nowMs: number, ttlSeconds: number, personal = false): string {
  const iat = Math.floor(nowMs / 1000);
  // exp rounds up: the token lives at least the expires_in the token endpoint announces.
  const claims: TokenClaims = { sub: clientId, gen: generation, iat, exp: Math.ceil(nowMs / 1000) + ttlSeconds, jti: randomBytes(9).toString('base64url'), ...(personal ? { pat: true as const } : {}) };
  const body = `${HEADER}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${sign(key, body)}`;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: 'undecodable' | 'unknown' | 'expired' };

/**
 * `nowMs` is wall-clock time for the tokens the token endpoint issues (wire contract 3: moving
 * the clock expires none), `clockMs` the sandbox clock for personal access tokens it minted.
 */
export function verifyToken(key: Buffer, token: string, nowMs: number, clockMs = nowMs): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'undecodable' };
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
  if (typeof claims?.sub !== 'string' || typeof claims.exp !== 'number') return { ok: false, reason: 'undecodable' };
  const expected = Buffer.from(sign(key, `${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'unknown' };
  if (tokenExpired(claims, nowMs, clockMs)) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

export function tokenExpired(claims: TokenClaims, nowMs: number, clockMs: number): boolean {
  return claims.exp * 1000 <= (claims.pat ? clockMs : nowMs);
}

function sign(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

function b64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
