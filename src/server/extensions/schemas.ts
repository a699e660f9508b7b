import { body, nonEmpty, z } from '../core/validate.js';

const httpUrl = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
  .max(2048)
  .refine((s) => /^https?:\/\/[^\s/]+\S*$/.test(s), 'must be an http(s) URL');

const fields = {
  name: z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(255)
    .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, hyphens and underscores'),
  label: nonEmpty(255),
  description: z.string().max(2000).nullable(),
  url: httpUrl,
  height: z.number().int('must be an integer').min(0).max(10_000).nullable(),
  category: z.enum(['CONTENT_FIELD', 'DASHBOARD']),
  parameters: z.string().max(100_000).nullable(),
  snippets: z.array(z.object({ label: nonEmpty(255), body: z.string().max(100_000) })).max(100),
  settings: z.string().max(100_000).nullable(),
  status: z.enum(['ACTIVE', 'ARCHIVED']),
};

export const create = body(
  'Extension',
  z.object({
    ...fields,
    description: fields.description.default(null),
    height: fields.height.default(null),
    parameters: fields.parameters.default(null),
    snippets: fields.snippets.default([]),
    settings: fields.settings.default(null),
    status: fields.status.default('ACTIVE'),
  }),
);

/** Clients send back whole fetched extensions: read-only fields are dropped, the rest may change. */
export const update = body('Extension', z.object(fields).partial());
