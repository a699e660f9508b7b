import type { ServiceHost } from '../core/context.js';
import type { Task } from '../core/tasks.js';
import { editions } from './store.js';
import { prepareEdition } from './lifecycle.js';

/** Task 'edition-schedule' (ref: the edition id): prepares a SCHEDULING edition's publishing job. */
export function run(service: ServiceHost, task: Task): void {
  const edition = editions(service.db).get(task.ref);
  if (edition?.publishingStatus === 'SCHEDULING') prepareEdition(service, edition, service.clock.now());
}
