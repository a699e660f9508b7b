import { body, nonEmpty, z } from '../core/validate.js';

const validationLevel = z.enum(['CONTENT_TYPE', 'SLOT', 'PARTIAL']);
/** The JSON Schema document: a string as the wire contract has it (an object is accepted too). */
const schemaBody = z.union([nonEmpty(2_000_000), z.record(z.string(), z.unknown())]);

export const create = body(
  'ContentTypeSchema',
  z.object({
    schemaId: nonEmpty(1024),
    body: schemaBody,
    validationLevel: validationLevel.default('CONTENT_TYPE'),
  }),
);

export const update = body(
  'ContentTypeSchema',
  z.object({
    body: schemaBody.optional(),
    validationLevel: validationLevel.optional(),
    /** When given, must be the current version (optimistic concurrency). */
    version: z.number().int().min(1).optional(),
  }),
);

export const version = body('ContentTypeSchema', z.object({ version: z.number({ error: 'is required (the current version)' }).int().min(1) }));

export const resolve = body(
  'ContentTypeSchema',
  z.object({
    body: schemaBody.optional(),
    schemaId: nonEmpty(1024).optional(),
  }).refine((b) => b.body !== undefined || b.schemaId !== undefined, 'give body or schemaId'),
);
