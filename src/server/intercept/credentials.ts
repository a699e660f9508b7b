import type { IncomingMessage } from 'node:http';
import type { Db } from '../core/db.js';
import { verifyToken } from '../core/auth/tokens.js';
import { secretMatches } from '../core/seed.js';
import { stmt } from '../core/statements.js';

// What the proxy never sends to a host that is not the sandbox's: a token the sandbox signed
// (valid or expired), or a client id and secret of one of its clients (Basic, or the token
// endpoint's query form). Only absolute-form requests can be read; a tunnel to another host is
// bytes the proxy never sees inside.

export function carriesSandboxCredential(db: Db, signingKey: Buffer, req: IncomingMessage, url: URL): boolean {
  const auth = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S{1,8192})$/i.exec(auth)?.[1];
  if (bearer) {
    const check = verifyToken(signingKey, bearer, Date.now());
    if (check.ok || check.reason === 'expired') return true;
  }
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,8192})$/i.exec(auth)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0 && isClientSecret(db, decoded.slice(0, colon), decoded.slice(colon + 1))) return true;
  }
  const id = url.searchParams.get('client_id');
  const secret = url.searchParams.get('client_secret');
  return id !== null && secret !== null && isClientSecret(db, id, secret);
}

function isClientSecret(db: Db, id: string, secret: string): boolean {
  const stored = stmt(db, 'SELECT secret_hash FROM clients WHERE id = ?').pluck().get(id) as string | undefined;
  return stored !== undefined && secretMatches(stored, secret);
}
