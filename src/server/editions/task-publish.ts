import type { ServiceHost } from '../core/context.js';
import type { Task } from '../core/tasks.js';
import { editions } from './store.js';
import { publishEdition } from './lifecycle.js';

/** Task 'edition-publish' (ref: the edition id): publishes a SCHEDULED edition at its start date. */
export function run(service: ServiceHost, task: Task): void {
  const edition = editions(service.db).get(task.ref);
  if (edition?.publishingStatus === 'SCHEDULED') publishEdition(service, edition, service.clock.now());
}
