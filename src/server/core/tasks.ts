import type { ServiceHost } from './context.js';
import type { Db } from './db.js';

export interface Task {
  id: number;
  kind: string;
  ref: string;
  due_at: number;
  attempts: number;
  payload: string;
}

export interface TaskModule {
  /** Asynchronous tasks run outside a transaction (network); synchronous ones inside one. */
  async?: boolean;
  /**
   * For kinds in SLOTTED_KINDS (they wait on other machines): whose work a task of `ref` is. The
   * scheduler shares its slots round-robin between tenants, then between refs of a tenant.
   */
  tenantOf?(db: Db, ref: string): string;
  run(service: ServiceHost, task: Task): void | Promise<void>;
}

/** Task kinds by name, each loaded on first use (like route families); families.ts lists them. */
export type TaskKinds = Record<string, () => Promise<TaskModule>>;

/** Names of the task kinds code enqueues or cancels. */
export const TASK = {
  publishingJob: 'publishing-job',
  webhookDelivery: 'webhook-delivery',
  /** A delivery to a receiver inside the sandbox (sandbox://…): no network, so no slot to wait for. */
  webhookInternal: 'webhook-internal',
  editionSchedule: 'edition-schedule',
  editionPublish: 'edition-publish',
  bulkJob: 'bulk-job',
} as const;

/** Asynchronous kinds that hold one of the scheduler's few slots while they run (network deliveries). */
export const SLOTTED_KINDS: readonly string[] = [TASK.webhookDelivery];
