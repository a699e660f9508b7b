import { body, nonEmpty, z } from '../core/validate.js';

export const clock = body(
  'Clock',
  z
    .object({
      set: z.string().optional(),
      advance: z.union([z.string(), z.number()]).optional(),
      freeze: z.boolean().optional(),
      resume: z.boolean().optional(),
      reset: z.boolean().optional(),
    })
    .refine(
      (b) => [b.set, b.advance, b.freeze, b.resume, b.reset].filter((v) => v !== undefined && v !== false).length === 1,
      'give exactly one of set, advance, freeze, resume, reset',
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

const target = { method: z.string().regex(/^([A-Z]+|\*)$/, 'must be an HTTP method or * (every method)').optional(), path: z.string().startsWith('/').optional() };
const rate = z.number().min(0).max(1);
const rule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('status'), status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)]), rate, retryAfterSeconds: z.number().min(0).optional(), ...target }),
  z.object({ kind: z.literal('latency'), ms: z.number().int().min(0).max(60_000), rate, ...target }),
  z.object({ kind: z.literal('drop'), rate, ...target }),
]);

/** Either structured rules or the spec text `cms sandbox serve --faults` takes. */
export const faults = body(
  'Faults',
  z
    .object({ rules: z.array(rule).max(50).optional(), spec: z.string().max(2000).optional(), seed: z.number().int().optional() })
    .refine((b) => (b.rules === undefined) !== (b.spec === undefined), 'give rules or spec'),
);

/** POST /__sandbox/snapshots: the name to save under (files stay with the CLI: routes-snapshots.ts). */
export const snapshot = body('Snapshot', z.object({ name: nonEmpty(100) }));
