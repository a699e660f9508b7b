import { accepted, ok, type RequestContext } from '../core/context.js';
import { notFound, ServiceError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { TASK } from '../core/tasks.js';
import { loadHub } from '../hubs/index.js';
import { bulkJobs, type BulkJob, type BulkJobType } from './store.js';
import { bulkJobHref, renderBulkJob } from './render.js';
import { failed } from './results.js';
import type { BulkPayload, PreparedEntry } from './task.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

// Hub-level bulk jobs. Creating one answers 202 at once; the work runs as a scheduler task
// (bulk/runner.ts) before the next request, or on the timer in serve mode.

interface JobTypeSpec {
  jobType: BulkJobType;
  /** Body schema of one selection entry. */
  entry: string;
  /** Body schema of request fields every entry shares (merged into each entry). */
  shared?: string;
}

/** The job types by the path segment that creates them. */
const JOB_TYPES: Record<string, JobTypeSpec> = {
  'assign-users': { jobType: 'ASSIGN_USERS', entry: 'bulkJobs.assignUsers' },
  'copy-items': { jobType: 'COPY_ITEMS', entry: 'bulkJobs.copyItems' },
  publish: { jobType: 'PUBLISH', entry: 'bulkJobs.publish' },
  unarchive: { jobType: 'UNARCHIVE', entry: 'bulkJobs.unarchive' },
  'update-workflow': { jobType: 'UPDATE_WORKFLOW', entry: 'bulkJobs.updateWorkflow', shared: 'bulkJobs.workflow' },
};

export function create(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const spec = JOB_TYPES[ctx.params.jobType!];
  if (!spec) throw notFound('BulkJobType', ctx.params.jobType);
  const shared = spec.shared ? ctx.validate<Record<string, unknown>>(spec.shared, ctx.json()) : {};
  const { selection } = ctx.body<Input<typeof bodies.request>>();
  const payload: BulkPayload = { entries: selection.map((raw) => prepare(ctx, spec.entry, raw, shared)) };
  const job: BulkJob = { id: newId(ctx.now()), hubId: hub.id, jobType: spec.jobType, status: 'CREATED', results: [], createdBy: ctx.principal.clientId, createdDate: ctx.nowIso(), lastModifiedDate: ctx.nowIso() };
  bulkJobs(ctx.db).insert(job);
  ctx.service.scheduler.enqueue(TASK.bulkJob, job.id, ctx.now(), payload);
  return accepted(renderBulkJob(ctx, job), bulkJobHref(ctx, job));
}

/** Validates one entry now, while its schema is loaded; an invalid entry keeps its 400 as its result. */
function prepare(ctx: RequestContext, schema: string, raw: unknown, shared: Record<string, unknown>): PreparedEntry {
  const id = (raw as { contentItemId?: unknown } | null)?.contentItemId;
  const contentItemId = typeof id === 'string' ? id : null;
  try {
    return { contentItemId, input: { ...ctx.validate<Record<string, unknown>>(schema, raw), ...shared } };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return { contentItemId, failure: failed(contentItemId, err) };
  }
}

export function get(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const job = bulkJobs(ctx.db).get(ctx.params.jobId!);
  if (!job || job.hubId !== hub.id) throw notFound('BulkJob', ctx.params.jobId);
  return ok(renderBulkJob(ctx, job));
}
