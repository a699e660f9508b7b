import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export interface WorkflowState {
  id: string;
  hubId: string;
  label: string;
  /** rgb(r,g,b) */
  color: string;
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const workflowStates = (db: Db) =>
  new Collection<WorkflowState>(db, 'workflow_states', { hub_id: (w) => w.hubId, created_date: (w) => w.createdDate }, { createdDate: 'created_date' });
