import type { Service } from '../service.js';
import type { Task } from './scheduler.js';

export interface TaskModule {
  /** Asynchronous tasks run outside a transaction (network); synchronous ones inside one. */
  async?: boolean;
  run(service: Service, task: Task): void | Promise<void>;
}

/** Names of the task kinds code enqueues or cancels. */
export const TASK = { publishingJob: 'publishing-job', webhookDelivery: 'webhook-delivery', editionSchedule: 'edition-schedule', editionPublish: 'edition-publish', bulkJob: 'bulk-job' } as const;

// Task kinds load on first use, like route families.
export const taskKinds: Record<string, () => Promise<TaskModule>> = {
  localize: () => import('../items/task-localize.js'),
  'publishing-job': () => import('../publishing/task.js'),
  'webhook-delivery': () => import('../webhooks/deliver.js'),
  'edition-schedule': () => import('../editions/task-schedule.js'),
  'edition-publish': () => import('../editions/task-publish.js'),
  'bulk-job': () => import('../bulk-jobs/task.js'),
};
