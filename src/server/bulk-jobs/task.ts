import { plainRequest } from '../core/exchange.js';
import type { ServiceHost } from '../core/context.js';
import type { Task } from '../core/tasks.js';
import { RequestContext } from '../core/context.js';
import { Principal } from '../core/auth/principal.js';
import { bulkJobs, type BulkJob, type BulkJobResult } from './store.js';
import { BULK_ACTIONS } from './actions.js';
import { failed, succeeded } from './results.js';

// Task 'bulk-job' (ref: the job id). The entries were validated when the job was created; each
// valid one runs its job type's action in its own savepoint, so a bad entry fails alone and the
// job is COMPLETED once every entry has a result.

/** One selection entry as the task holds it: its validated input, or the result it already failed with. */
export type PreparedEntry = { contentItemId: string | null; input: Record<string, unknown> } | { contentItemId: string | null; failure: BulkJobResult };

export interface BulkPayload {
  entries: PreparedEntry[];
}

export function run(service: ServiceHost, task: Task): void {
  const jobs = bulkJobs(service.db);
  const job = jobs.get(task.ref);
  if (!job || job.status !== 'CREATED') return;
  const now = new Date(service.clock.now()).toISOString();
  const creator = Principal.load(service.db, job.createdBy);
  if (!creator) {
    jobs.update({ ...job, status: 'FAILED', lastModifiedDate: now, errors: [{ level: 'ERROR', code: 'CREATOR_NOT_FOUND', message: `The client ${job.createdBy} that created the job no longer exists` }] });
    return;
  }
  const ctx = actingContext(service, job, creator);
  const { entries } = JSON.parse(task.payload) as BulkPayload;
  const results = entries.map((entry) => ('failure' in entry ? entry.failure : runEntry(ctx, job, entry.contentItemId, entry.input)));
  jobs.update({ ...job, status: 'COMPLETED', results, lastModifiedDate: now });
}

function runEntry(ctx: RequestContext, job: BulkJob, contentItemId: string | null, input: Record<string, unknown>): BulkJobResult {
  try {
    return succeeded(contentItemId, ctx.db.transaction(() => BULK_ACTIONS[job.jobType](ctx, job.hubId, input))());
  } catch (err) {
    return failed(contentItemId, err);
  }
}

/**
 * What the entries run in: the creating client with the permissions it holds now, on the sandbox
 * clock, as if each entry were one of its requests. Nothing is rendered, so the URL only names the job.
 */
function actingContext(service: ServiceHost, job: BulkJob, creator: Principal): RequestContext {
  const url = new URL(`http://sandbox.internal/v2/content/hubs/${job.hubId}/bulk-jobs/${job.id}`);
  const ctx = new RequestContext(service, plainRequest('GET', url.href, {}), url, service.routeByOp('bulkJobs.get')!, { hubId: job.hubId, jobId: job.id }, '');
  ctx.principal = creator;
  return ctx;
}
