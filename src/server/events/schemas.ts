// Body schemas of this family: see core/route-table.ts (body: '<family>.<name>').
import { body, isoDateTime, nonEmpty, optionalText, z } from '../core/validate.js';

const fields = {
  name: nonEmpty(255),
  start: isoDateTime(),
  end: isoDateTime(),
  comment: optionalText(250),
  brief: optionalText(2048),
};

/** The order of start and end is checked by the handler, which also sees the stored dates on update. */
export const create = body('Event', z.object({ ...fields, comment: fields.comment.default(''), brief: fields.brief.default('') }));

export const update = body('Event', z.object(fields).partial());
