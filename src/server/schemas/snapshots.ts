import { body, nonEmpty, z } from '../validate.js';

const createdFrom = z.enum(['content-item', 'edition']);
const type = z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['USER', 'SYSTEM', 'GENERATED']));

export const create = body(
  'Snapshot',
  z.object({ comment: nonEmpty(1000), createdFrom, type, contentRoot: nonEmpty(64) }),
);

/** Batch entries may carry an empty comment (clients generate snapshots for links in bulk). */
export const batch = body(
  'Snapshot',
  z.array(z.object({ comment: z.string().max(1000).default(''), createdFrom, type, contentRoot: nonEmpty(64) })).min(1).max(500),
);

export const publishingJob = body(
  'PublishingJob',
  z.object({ scheduledDate: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time') }),
);

export const cancelJob = body('PublishingJob', z.object({ state: z.literal('CANCELLED', { error: "must be 'CANCELLED'" }) }));
