import { assignees as assigneeList, body, contentItemId as itemId, nonEmpty, versionNumber, z } from '../core/validate.js';

// Bulk jobs: the request is checked as a whole (selection size, shared fields); each selection
// entry is checked on its own when the job is created, so a bad entry fails alone.

const MAX_SELECTION = 1000;

// An entry follows the rules of the single operation it stands for (the fields are core's, shared with items).
const contentItemId = itemId();
const version = versionNumber();
const assignees = assigneeList();

export const request = body(
  'BulkJob',
  z.object({
    selection: z
      .array(z.unknown(), { error: (i) => (i.input === undefined ? 'is required: the items to work on' : 'must be an array') })
      .min(1, 'must hold at least 1 entry')
      .max(MAX_SELECTION, `must hold at most ${MAX_SELECTION} entries`),
  }),
);

/** update-workflow: the state every selected item gets (null removes the workflow). */
export const workflow = body(
  'BulkJob',
  z.object({
    workflow: z.object(
      { state: z.string({ error: 'is required: a workflow state id, or null to remove it' }).min(1).nullable() },
      { error: 'is required: {state: <workflow state id or null>}' },
    ),
  }),
);

export const assignUsers = body('BulkJob', z.object({ contentItemId, assignees, version: version.optional() }));

export const copyItems = body(
  'BulkJob',
  z.object({
    contentItemId,
    version,
    contentRepositoryId: nonEmpty(64),
    folderId: z.string().nullable().optional(),
    name: nonEmpty(255),
    label: nonEmpty(255),
  }),
);

export const publish = body('BulkJob', z.object({ contentItemId, version }));

export const unarchive = body('BulkJob', z.object({ contentItemId, version }));

export const updateWorkflow = body('BulkJob', z.object({ contentItemId, version: version.optional() }));
