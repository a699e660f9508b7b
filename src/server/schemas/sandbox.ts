import { body, nonEmpty, z } from '../validate.js';

export const clock = body(
  'Clock',
  z
    .object({
      set: z.string().optional(),
      advance: z.union([z.string(), z.number()]).optional(),
      freeze: z.boolean().optional(),
      resume: z.boolean().optional(),
    })
    .refine(
      (b) => [b.set, b.advance, b.freeze, b.resume].filter((v) => v !== undefined && v !== false).length === 1,
      'give exactly one of set, advance, freeze, resume',
    ),
);

const aclEntry = z.object({
  resource: z.enum(['hubs', 'content-repositories']),
  id: nonEmpty(64),
  permissions: z.array(nonEmpty(64)).min(1),
});

export const client = body(
  'Client',
  z.object({
    id: nonEmpty(128).refine((s) => /^[A-Za-z0-9._-]+$/.test(s), 'may contain letters, digits, dot, hyphen and underscore'),
    secret: nonEmpty(256),
    label: z.string().max(255).optional(),
    permissions: z.array(nonEmpty(128)).default([]),
    acl: z.array(aclEntry).default([]),
  }),
);
