import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { stmt } from './statements.js';
import type { Db } from './db.js';

export const ADMIN_CLIENT_ID = 'sandbox-admin';
export const ADMIN_CLIENT_SECRET = 'sandbox-secret';

/** A client secret as stored: `sha256$<salt>$<hex>`, salted so equal secrets do not look equal. */
export function hashSecret(secret: string, salt = randomBytes(16).toString('base64url')): string {
  return `sha256$${salt}$${createHash('sha256').update(salt).update(secret).digest('hex')}`;
}

/** Whether a secret matches its stored hash (salted, or the unsalted hex of databases before 0008). */
export function secretMatches(stored: string, secret: string): boolean {
  const salted = /^sha256\$([^$]+)\$/.exec(stored);
  const expected = Buffer.from(stored);
  const given = Buffer.from(salted ? hashSecret(secret, salted[1]) : createHash('sha256').update(secret).digest('hex'));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A new client generation: tokens name it, so tokens of an earlier client with the same id are unknown. */
export const newGeneration = (): string => randomBytes(9).toString('base64url');

/** The well-known admin client and the key that signs this sandbox's tokens. */
export function coreSeed(db: Db): void {
  stmt(db, 'INSERT INTO sandbox_state (key, value) VALUES (?, ?)').run('signing-key', randomBytes(32).toString('base64'));
  seedAdminClient(db);
}

export function seedAdminClient(db: Db): void {
  stmt(
    db,
    `INSERT OR IGNORE INTO clients (id, secret_hash, admin, permissions, label, created_date) VALUES (?, ?, 1, '[]', ?, ?)`,
  ).run(ADMIN_CLIENT_ID, hashSecret(ADMIN_CLIENT_SECRET), 'Sandbox administrator (every permission)', new Date().toISOString());
}
