import type { Service } from '../service.js';
import type { Task } from '../core/scheduler.js';
import { runPublishingJob } from './publish.js';

/** A publishing job whose scheduled date has come (task ref: the job id). */
export function run(service: Service, task: Task): void {
  runPublishingJob(service.db, task.ref, service.clock.now());
}
