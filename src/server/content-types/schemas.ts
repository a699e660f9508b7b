import { body, nonEmpty, z } from '../core/validate.js';

// Settings as the hosted service's types carry them (issue 22.5; the management SDK's
// ContentTypeSettings): `label` is the only required field. A card is often just a templatedUri
// (the vendor's own types carry cards without a label). Fields we do not know are kept, in the
// settings and in each icon, visualization and card: nothing a client sends is dropped.
const icon = z.object({ size: z.number().int().min(1).optional(), url: nonEmpty(2048) }).passthrough();
const visualization = z.object({ label: nonEmpty(255), templatedUri: nonEmpty(2048), default: z.boolean().optional() }).passthrough();
const card = z.object({ label: nonEmpty(255).optional(), templatedUri: nonEmpty(2048), default: z.boolean().optional() }).passthrough();

const settings = z
  .object({
    label: nonEmpty(255),
    icons: z.array(icon).max(50).optional(),
    visualizations: z.array(visualization).max(50).optional(),
    cards: z.array(card).max(50).optional(),
  })
  .passthrough();

export const register = body('ContentType', z.object({ contentTypeUri: nonEmpty(1024), settings }));

export const update = body('ContentType', z.object({ settings }));

export const assign = body('ContentRepository', z.object({ contentTypeId: nonEmpty(64) }));
