import type { Service } from '../service.js';
import type { Task } from './scheduler.js';
import { runPublishingJob } from '../publishing/publish.js';

/** A publishing job whose scheduled date has come (task ref: the job id). */
export function run(service: Service, task: Task): void {
  runPublishingJob(service.db, task.ref, service.clock.now());
}
