import { expect } from 'vitest';
import type { Reply } from './server.js';

export const ERROR_CONTENT_TYPE = 'application/hal+json;charset=UTF-8';

/**
 * Asserts a wire-contract error answer: the status, the hal+json content type and
 * {errors:[{level, code, message, ...}]}. Returns the first error entry.
 */
export function expectError(res: Reply, status: number): any {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe(ERROR_CONTENT_TYPE);
  expect(Array.isArray(res.body?.errors), res.text).toBe(true);
  expect(res.body.errors.length).toBeGreaterThan(0);
  for (const e of res.body.errors) {
    expect(e.level).toBe('ERROR');
    expect(typeof e.code).toBe('string');
    expect(e.code.length).toBeGreaterThan(0);
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
  }
  return res.body.errors[0];
}

/** The properties named by the entries of an error answer. */
export const errorProperties = (res: Reply): string[] => (res.body?.errors ?? []).map((e: { property?: string }) => e.property);

export const HEX_ID = /^[0-9a-f]{24}$/;
export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A functional permission name, as the description spells them. */
export { FN } from '../../src/server/core/auth/permissions.js';

/** A well-formed id that names nothing. */
export const MISSING_ID = '5f00000000000000000000ff';
