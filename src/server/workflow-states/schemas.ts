import { body, nonEmpty, z } from '../core/validate.js';

const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;

/** rgb(r,g,b) with each value 0..255, stored without spaces. */
const color = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
  .refine((s) => RGB.exec(s)?.slice(1).every((v) => Number(v) <= 255) ?? false, 'must be rgb(r,g,b) with each value 0..255')
  .transform((s) => s.replace(/\s+/g, ''));

export const create = body('WorkflowState', z.object({ label: nonEmpty(255), color }));

export const update = body('WorkflowState', z.object({ label: nonEmpty(255).optional(), color: color.optional() }));
