import { Service, type ServiceOptions } from './service.js';
import { JOURNAL_FILTER_NAMES, parseJournalFilter, type JournalEntry, type VerifyResult, type VerifySpec } from './core/journal.js';
import { badRequest } from './core/errors.js';

/** A journal filter in process: the query parameters of GET /__sandbox/requests as an object. */
export type RequestsFilter = Partial<Record<(typeof JOURNAL_FILTER_NAMES)[number], string | number | boolean>>;
export type { JournalEntry, VerifyResult, VerifySpec };

export type { ServiceOptions } from './service.js';
export { ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET } from './core/seed.js';

export interface Sandbox {
  /** The whole service over WHATWG Request/Response (serve mode, tests). */
  fetch(req: Request): Promise<Response>;
  /** Waits for background work (webhook deliveries) to settle. */
  idle(timeoutMs?: number): Promise<void>;
  /** Runs due work on a timer (serve mode). */
  startScheduler(intervalMs?: number): void;
  close(): void;
  /**
   * The request journal in process (the programmatic API's requests()): what GET
   * /__sandbox/requests answers, without a request of its own. A malformed filter throws a 400.
   */
  requests(filter?: RequestsFilter): JournalEntry[];
  /** What POST /__sandbox/requests/verify answers (ok, or the nearest misses); a malformed spec rejects with a 400. */
  verifyRequests(spec: VerifySpec): Promise<VerifyResult>;
  readonly service: Service;
}

export function createSandbox(options: ServiceOptions): Sandbox {
  const service = new Service(options);
  return {
    fetch: service.fetch,
    idle: (timeoutMs) => service.idle(timeoutMs),
    startScheduler: (intervalMs) => service.scheduler.start(intervalMs),
    close: () => service.close(),
    requests: (filter = {}) => service.journal.query(parseJournalFilter(filterParam(filter))).requests,
    verifyRequests: async (spec) => {
      // The endpoint's own schema, loaded when first used (it brings zod).
      const [{ verify }, { parse }] = await Promise.all([import('./sandbox/schemas.js'), import('./core/validate.js')]);
      return service.journal.verify(parse(verify.schema, spec, verify.entity) as VerifySpec);
    },
    service,
  };
}

/** The filter object read as query parameters; a name the endpoint does not know is refused (a typo would filter nothing). */
function filterParam(filter: RequestsFilter): (name: string) => string | null {
  if (filter === null || typeof filter !== 'object') throw badRequest('the requests filter must be an object');
  for (const k of Object.keys(filter)) {
    if (!(JOURNAL_FILTER_NAMES as readonly string[]).includes(k)) throw badRequest(`${k} is not a requests filter (${JOURNAL_FILTER_NAMES.join(', ')})`, { property: k });
  }
  return (name) => {
    const v = (filter as Record<string, unknown>)[name];
    return v === undefined || v === null ? null : String(v);
  };
}
