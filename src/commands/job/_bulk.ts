import { col, failing, list, type Output } from '../../output/result.js';
import { PartialFailure } from '../../core/errors.js';

export const BULK_JOB_TYPES = ['assign-users', 'copy-items', 'publish', 'unarchive', 'update-workflow'] as const;
export type BulkJobTypeName = (typeof BULK_JOB_TYPES)[number];

export interface BulkResult {
  contentItemId: string | null;
  status: number;
  code: string;
  message: string | null;
}

export interface BulkJob {
  id: string;
  jobType: string;
  status: string;
  results: BulkResult[];
}

export const bulkJobPath = (hubId: string, jobId: string) => `/hubs/${hubId}/bulk-jobs/${encodeURIComponent(jobId)}`;

/** How many entries succeeded and failed, for a one-line view of a job. */
export function summary(job: BulkJob): string {
  const failed = job.results.filter((r) => r.status !== 200).length;
  return job.results.length ? `${job.results.length - failed} succeeded, ${failed} failed` : '';
}

export const BULK_JOB_COLUMNS = [col('id'), col('type', 'jobType'), col('status'), col('results', (j: BulkJob) => summary(j)), col('created', 'createdDate')];

/** A finished job's per-item results; exit 3 when some items failed. */
export function resultsOf(job: BulkJob): Output {
  const out = list(job.results, [col('item', 'contentItemId'), col('status'), col('code'), col('message')]);
  const failed = job.results.filter((r) => r.status !== 200);
  if (!failed.length) return out;
  return failing(out, new PartialFailure(`${failed.length} of ${job.results.length} items failed in bulk job ${job.id}`, failed.map((r) => ({ id: r.contentItemId ?? undefined, reason: r.message ?? r.code }))));
}
