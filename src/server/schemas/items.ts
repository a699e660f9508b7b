import { body, nonEmpty, z } from '../validate.js';

const meta = z.object({ schema: z.string({ error: 'is required (the content type URI)' }).min(1), name: z.string().optional(), deliveryKey: z.string().nullable().optional() }).passthrough();
const itemBody = z.object({ _meta: meta }).passthrough();
const locale = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a locale such as en-GB');
const assignees = z.array(nonEmpty(255)).max(100);

/** Create and copy share one route (copy is ?sourceContentItemId=): the handler picks the strict schema. */
export const createOrCopy = body('ContentItem', z.object({}).passthrough());

export const create = body(
  'ContentItem',
  z.object({
    body: itemBody,
    label: nonEmpty(255),
    folderId: z.string().nullable().optional(),
    locale: locale.nullable().optional(),
    assignees: assignees.optional(),
  }),
);
