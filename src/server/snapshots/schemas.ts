import { body, nonEmpty, z } from '../core/validate.js';

const createdFrom = z.enum(['content-item', 'edition']);
const typeOf = <const T extends readonly [string, ...string[]]>(types: T) => z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(types));

/** The description: type USER or SYSTEM. GENERATED is a listing filter, not a type one creates. */
export const create = body(
  'Snapshot',
  z.object({ comment: nonEmpty(1000), createdFrom, type: typeOf(['USER', 'SYSTEM']), contentRoot: nonEmpty(64) }),
);

/**
 * Batch entries (shape not shown in the description) may carry an empty comment and type
 * GENERATED: clients generate snapshots of linked content in bulk, and that is where the
 * GENERATED snapshots a listing filters on come from.
 */
export const batch = body(
  'Snapshot',
  z.array(z.object({ comment: z.string().max(1000).default(''), createdFrom, type: typeOf(['USER', 'SYSTEM', 'GENERATED']), contentRoot: nonEmpty(64) })).min(1).max(500),
);
