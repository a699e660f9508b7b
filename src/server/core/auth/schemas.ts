import { body, nonEmpty, z } from '../validate.js';
import { SHAREABLE } from './permissions.js';

export const share = body(
  'Share',
  z.object({
    user: nonEmpty(255),
    additionalPermissions: z.array(z.enum(SHAREABLE)).min(1, 'must name at least one permission'),
  }),
);
