import { ServiceError } from '../core/errors.js';
import type { BulkJobResult } from './store.js';

// The result of one selection entry, as the job lists it.

export const succeeded = (contentItemId: string | null, made: Record<string, unknown>): BulkJobResult => ({ contentItemId, status: 200, code: 'SUCCESS', message: null, ...made });

/** The entry's error as the single operation would answer it: its status, first code, and every message. */
export function failed(contentItemId: string | null, err: unknown): BulkJobResult {
  if (err instanceof ServiceError) {
    return { contentItemId, status: err.status, code: err.entries[0]!.code, message: err.entries.map((e) => e.message).join('; ') };
  }
  return { contentItemId, status: 500, code: 'INTERNAL_SERVER_ERROR', message: `The sandbox failed on this entry: ${err instanceof Error ? err.message : String(err)}` };
}
