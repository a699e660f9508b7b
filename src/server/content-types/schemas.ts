import { body, nonEmpty, z } from '../core/validate.js';

const icon = z.object({ size: z.number().int().min(1), url: nonEmpty(2048) });
const visualization = z.object({ label: nonEmpty(255), templatedUri: nonEmpty(2048), default: z.boolean().optional() });

const settings = z
  .object({
    label: nonEmpty(255),
    icons: z.array(icon).max(50).optional(),
    visualizations: z.array(visualization).max(50).optional(),
    cards: z.array(visualization).max(50).optional(),
  })
  .passthrough();

export const register = body('ContentType', z.object({ contentTypeUri: nonEmpty(1024), settings }));

export const update = body('ContentType', z.object({ settings }));

export const assign = body('ContentRepository', z.object({ contentTypeId: nonEmpty(64) }));
