import type { ServiceHost } from '../core/context.js';
import type { Task } from '../core/tasks.js';
import { runPublishingJob } from './publish.js';

/** A publishing job whose scheduled date has come (task ref: the job id). */
export function run(service: ServiceHost, task: Task): void {
  runPublishingJob(service.db, task.ref, service.clock.now());
}
