import { body, nonEmpty, z } from '../core/validate.js';

export const create = body('Folder', z.object({ name: nonEmpty(255) }));

export const update = body('Folder', z.object({ name: nonEmpty(255) }));
