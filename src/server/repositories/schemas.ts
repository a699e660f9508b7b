import { body, nonEmpty, optionalNonEmpty, z } from '../core/validate.js';

const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export const create = body('ContentRepository', z.object({ name: nonEmpty(255), label: nonEmpty(255) }));

export const update = body('ContentRepository', z.object({ name: optionalNonEmpty(255), label: optionalNonEmpty(255) }));

export const itemLocales = body(
  'ContentRepository',
  z.object({ itemLocales: z.array(z.string().regex(LOCALE_PATTERN, 'must be a locale such as en-GB')).max(500) }),
);

export const joinGroup = body('ContentRepository', z.object({ newRepositoryId: nonEmpty(64) }));
