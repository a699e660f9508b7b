import { createHash } from 'node:crypto';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { serviceError } from './errors.js';
import type { Reply } from './context.js';

// Idempotency-Key on POST: the first successful reply is stored in the same transaction as the
// change it describes, so a client that retries (after a timeout, a 503, or a crash and
// --resume) gets the original answer instead of a second resource. An error changes nothing and
// is not remembered: the corrected request may use the same key. A key names one request: used
// again on another path or with another body, it is refused (422), never replayed.

const hashOf = (body: string): string => createHash('sha256').update(body).digest('hex');

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEEP_MS = 24 * 3600_000;

interface Stored {
  method: string;
  path: string;
  status: number;
  headers: string;
  body: string | null;
  body_hash: string | null;
}

/** The stored reply for this client and key, or null; 422 when the key was used for another request. */
export function replayed(db: Db, clientId: string, key: string, method: string, path: string, requestBody: string): Reply | null {
  const row = stmt(db, 'SELECT method, path, status, headers, body, body_hash FROM idempotency_keys WHERE client_id = ? AND key = ? AND created_at > ?').get(clientId, key, Date.now() - KEEP_MS) as
    | Stored
    | undefined;
  if (!row) return null;
  if (row.method !== method || row.path !== path) {
    throw serviceError(422, { code: 'IDEMPOTENCY_KEY_REUSED', message: `Idempotency-Key '${key}' was already used for ${row.method} ${row.path}`, property: 'Idempotency-Key', invalidValue: key });
  }
  // Rows stored before 0008 have no hash: they replay as before.
  if (row.body_hash !== null && row.body_hash !== hashOf(requestBody)) {
    throw serviceError(422, {
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: `Idempotency-Key '${key}' was already used for ${row.method} ${row.path} with a different body; use a new key for a new request`,
      property: 'Idempotency-Key',
      invalidValue: key,
    });
  }
  // The stored body is sent as it was stored: JSON either way.
  return { status: row.status, headers: { ...(JSON.parse(row.headers) as Record<string, string>), 'Idempotent-Replayed': 'true' }, json: row.body ?? undefined };
}

/** Stores a successful reply, inside the transaction that made the change. */
export function remember(db: Db, clientId: string, key: string, method: string, path: string, requestBody: string, reply: Reply): void {
  if (reply.status >= 500) return;
  stmt(db, 'INSERT OR REPLACE INTO idempotency_keys (client_id, key, method, path, status, headers, body, created_at, body_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    clientId,
    key,
    method,
    path,
    reply.status,
    JSON.stringify(reply.headers ?? {}),
    reply.json ?? (reply.body === undefined ? null : JSON.stringify(reply.body)),
    Date.now(),
    hashOf(requestBody),
  );
  // Old keys go a few at a time, so no request pays for a big cleanup.
  stmt(db, 'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT 20)').run(Date.now() - KEEP_MS);
}
