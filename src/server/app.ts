import { Service, type ServiceOptions } from './service.js';

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
  readonly service: Service;
}

export function createSandbox(options: ServiceOptions): Sandbox {
  const service = new Service(options);
  return {
    fetch: service.fetch,
    idle: (timeoutMs) => service.idle(timeoutMs),
    startScheduler: (intervalMs) => service.scheduler.start(intervalMs),
    close: () => service.close(),
    service,
  };
}
