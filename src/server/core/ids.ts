import { randomBytes, randomUUID } from 'node:crypto';

// Hub, repository, type, folder, edition... identifiers: 24 hex characters, the first 8 a
// seconds timestamp (like the hosted service's), so they sort roughly by creation.
export function newId(nowMs = Date.now()): string {
  const seconds = Math.floor(nowMs / 1000).toString(16).padStart(8, '0').slice(-8);
  return seconds + randomBytes(8).toString('hex');
}

export const newUuid = (): string => randomUUID();

export const isHexId = (value: string): boolean => /^[0-9a-f]{24}$/i.test(value);
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
