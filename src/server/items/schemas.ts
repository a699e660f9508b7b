import { assignees as assigneeList, body, contentItemId, nonEmpty, versionNumber as versionField, z } from '../core/validate.js';

const meta = z.object({ schema: z.string({ error: 'is required (the content type URI)' }).min(1), name: z.string().optional(), deliveryKey: z.string().nullable().optional() }).passthrough();
const itemBody = z.object({ _meta: meta }).passthrough();
const localeCode = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a locale such as en-GB');
const assignees = assigneeList();
const versionNumber = versionField();
const folderId = z.string().nullable().optional();

/** Create and copy share one route (copy is ?sourceContentItemId=): the handler picks the strict schema. */
export const createOrCopy = body('ContentItem', z.object({}).passthrough());

export const create = body(
  'ContentItem',
  z.object({
    body: itemBody,
    label: nonEmpty(255),
    folderId,
    locale: localeCode.nullable().optional(),
    assignees: assignees.optional(),
  }),
);

export const copy = body(
  'ContentItem',
  z.object({
    label: nonEmpty(255),
    body: itemBody.optional(),
    name: z.string().optional(),
    version: z.union([versionNumber, z.literal('latest')], { error: 'must be a version number or "latest"' }).default('latest'),
    folderId,
    locale: localeCode.nullable().optional(),
  }),
);

/** The fields an update may change; clients send whole fetched items, the rest is dropped. */
const changes = {
  body: itemBody.optional(),
  label: nonEmpty(255).optional(),
  folderId,
  assignees: assignees.optional(),
  locale: localeCode.nullable().optional(),
  deliveryKey: z.string().nullable().optional(),
  version: versionNumber,
};

export const update = body('ContentItem', z.object(changes));

/** The whole bulk request: each entry is validated on its own (bulkEntry) so one bad entry fails alone. */
export const bulkUpdate = body('ContentItem', z.array(z.unknown()).min(1, 'must hold at least 1 entry').max(100, 'must hold at most 100 entries'));

export const bulkEntry = body(
  'ContentItem',
  z.object({
    id: contentItemId(),
    version: versionNumber,
    label: changes.label,
    folderId,
    assignees: changes.assignees,
    body: changes.body,
  }),
);

export const version = body('ContentItem', z.object({ version: versionNumber }));

export const restore = body('ContentItem', z.object({ version: versionNumber, restoreVersion: versionNumber }));

export const locale = body('ContentItem', z.object({ locale: localeCode, version: versionNumber }));

export const workflow = body(
  'ContentItem',
  z.object({ version: versionNumber, state: z.string({ error: 'is required: a workflow state id, or null to remove it' }).min(1).nullable() }),
);

export const localize = body('ContentItem', z.object({ locales: z.array(localeCode).min(1, 'must name at least one locale').max(100), version: versionNumber }));

/** The key's format rules live in item-rules.ts (create and update apply them too). */
export const deliveryKey = body('ContentItem', z.object({ deliveryKey: z.string({ error: 'is required: a key, or null to remove it' }).nullable(), version: versionNumber }));

export const filter = body(
  'ContentItem',
  z.object({
    collectionKey: nonEmpty(150),
    sortBy: z.object({ key: nonEmpty(64), order: z.enum(['ASC', 'DESC', 'asc', 'desc']).default('ASC') }).optional(),
    page: z.object({ size: z.number().int().min(1).max(1000).optional(), number: z.number().int().min(0).optional() }).optional(),
  }),
);
