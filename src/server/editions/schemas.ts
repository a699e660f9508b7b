// Body schemas of this family: see core/route-table.ts (body: '<family>.<name>').
import { body, isoDateTime, nonEmpty, optionalText, z } from '../core/validate.js';

// Editions: create, copy, update and preview.

const editionFields = {
  name: nonEmpty(120),
  start: isoDateTime(),
  end: isoDateTime(),
  comment: optionalText(250),
  activeEndDate: z.boolean({ error: 'must be true or false' }),
};

/** Create and copy (?sourceEditionId=) share the route; the handler picks `createNew`, or `update` for a copy (every field optional). */
export const create = body('Edition', z.object({}).loose());

export const createNew = body('Edition', z.object({ ...editionFields, comment: editionFields.comment.default(''), activeEndDate: editionFields.activeEndDate.default(false) }));

/** The order of start and end, and their place within the event, are checked by the handler (it sees the stored values). */
export const update = body('Edition', z.object(editionFields).partial());

export const preview = body('Edition', z.object({ lastModifiedDate: isoDateTime().optional(), type: nonEmpty(64).default('QUICKPREVIEW') }));

// What an edition contains and its scheduling: slots, slot content, edition content, conflicts, schedule.

/** `[{"slot": "<slot item id>"}]`; a copy (?sourceEditionSlotId=) may send `[]` or `{}`. */
export const assignSlots = body(
  'EditionSlot',
  z.preprocess(
    (v) => (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0 ? [] : v),
    z.array(z.object({ slot: nonEmpty(64) }), { error: 'must be an array of {"slot": "<slot item id>"}' }).max(200, 'must hold at most 200 slots'),
  ),
);

/** The slot content: `{body: {_meta, <property>: content link(s) to snapshots}}`. */
export const slotContent = body('EditionSlot', z.object({ body: z.object({}, { error: 'is required: the slot content object' }).loose() }));

/** Edition content comes in several shapes (a snapshot, links, `{body: {contents}}`); the handler reads them. */
export const content = body('EditionContent', z.union([z.array(z.unknown()), z.object({}).loose()], { error: 'must be a JSON object or array' }));

export const resolve = body(
  'Edition',
  z.object({
    comment: optionalText(250).optional(),
    lastModifiedDate: isoDateTime().optional(),
    resolutions: z.array(z.object({ id: nonEmpty(64), version: z.number({ error: 'is required: the version to publish' }).int('must be an integer').min(1) }), { error: 'is required: [{id, version}]' }),
  }),
);

export const schedule = body('Edition', z.object({ lastModifiedDate: isoDateTime().optional() }));
