import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './db.js';

export const ADMIN_CLIENT_ID = 'sandbox-admin';
export const ADMIN_CLIENT_SECRET = 'sandbox-secret';

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The well-known admin client and the key that signs this sandbox's tokens. */
export function coreSeed(db: Db): void {
  db.prepare('INSERT INTO sandbox_state (key, value) VALUES (?, ?)').run('signing-key', randomBytes(32).toString('base64'));
  seedAdminClient(db);
}

export function seedAdminClient(db: Db): void {
  db.prepare(
    `INSERT OR IGNORE INTO clients (id, secret_hash, admin, permissions, label, created_date) VALUES (?, ?, 1, '[]', ?, ?)`,
  ).run(ADMIN_CLIENT_ID, hashSecret(ADMIN_CLIENT_SECRET), 'Sandbox administrator (every permission)', new Date().toISOString());
}
