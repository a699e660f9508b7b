import type { Service } from '../service.js';
import type { Task } from './scheduler.js';

export interface TaskModule {
  /** Asynchronous tasks run outside a transaction (network); synchronous ones inside one. */
  async?: boolean;
  run(service: Service, task: Task): void | Promise<void>;
}

// Task kinds load on first use, like route families.
export const taskKinds: Record<string, () => Promise<TaskModule>> = {};
