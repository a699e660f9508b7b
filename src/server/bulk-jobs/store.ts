import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export type BulkJobType = 'ASSIGN_USERS' | 'COPY_ITEMS' | 'PUBLISH' | 'UNARCHIVE' | 'UPDATE_WORKFLOW';

/** What happened to one entry of the selection: 200 SUCCESS, or the error the single operation gives. */
export interface BulkJobResult {
  contentItemId: string | null;
  status: number;
  code: string;
  message: string | null;
  /** What a success made: the new version, the copy's id, the publishing job's id. */
  [made: string]: unknown;
}

export interface BulkJob {
  id: string;
  hubId: string;
  jobType: BulkJobType;
  /** COMPLETED once every entry ran (whatever each entry's outcome); FAILED when the job could not run. */
  status: 'CREATED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  results: BulkJobResult[];
  /** Why a FAILED job could not run. */
  errors?: { level: 'ERROR'; code: string; message: string }[];
  createdBy: string;
  createdDate: string;
  lastModifiedDate: string;
}

export const bulkJobs = (db: Db) => new Collection<BulkJob>(db, 'bulk_jobs', { hub_id: (j) => j.hubId, created_date: (j) => j.createdDate });
