import { body, z } from '../core/validate.js';

export const publishingJob = body(
  'PublishingJob',
  z.object({ scheduledDate: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time') }),
);

export const cancelJob = body('PublishingJob', z.object({ state: z.literal('CANCELLED', { error: "must be 'CANCELLED'" }) }));
