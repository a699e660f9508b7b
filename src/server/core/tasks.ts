import type { ServiceHost } from './context.js';

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
  run(service: ServiceHost, task: Task): void | Promise<void>;
}

/** Task kinds by name, each loaded on first use (like route families); families.ts lists them. */
export type TaskKinds = Record<string, () => Promise<TaskModule>>;

/** Names of the task kinds code enqueues or cancels. */
export const TASK = { publishingJob: 'publishing-job', webhookDelivery: 'webhook-delivery', editionSchedule: 'edition-schedule', editionPublish: 'edition-publish', bulkJob: 'bulk-job' } as const;
