import { serviceError } from './errors.js';

// How many request body bytes the served sandbox holds at once. A body is read only after its
// caller was authenticated and allowed (service.ts), public routes take small ones, and all
// bodies being read or handled together stay under one budget: past it, a 503 with Retry-After
// asks the client to come back, instead of memory growing with every connection.

/** The largest body a public (unauthenticated) route takes. */
export const PUBLIC_MAX_BODY_BYTES = 1024 * 1024;
/** The bytes of request bodies held at once, across all connections. */
export const BODY_BUDGET_BYTES = 32 * 1024 * 1024;

export class BodyBudget {
  private used = 0;

  constructor(readonly limit = BODY_BUDGET_BYTES) {}

  /** Reserves bytes; false when they do not fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

export const serverBusy = () =>
  serviceError(503, { code: 'SERVER_BUSY', message: 'The sandbox is reading as many request bodies as it holds at once; retry in a second' }, { 'Retry-After': '1' });

export const bodyTooLarge = (limit: number) => serviceError(413, { message: `The request body exceeds ${limit} bytes` });
