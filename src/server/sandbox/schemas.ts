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

/** POST /__sandbox/clients/{id}/tokens: a personal access token, living `expiresIn` (a duration like 1h, or seconds). */
export const clientToken = body('ClientToken', z.object({ expiresIn: z.union([z.string().max(32), z.number().int().min(1)]).optional() }));

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

const count = z.number().int().min(0).max(1_000_000);

/** POST /__sandbox/requests/verify: requests like this one, this many times. */
export const verify = body(
  'Verify',
  z
    .object({
      method: z.string().regex(/^([A-Za-z]+|\*)$/, 'must be an HTTP method or * (every method)').max(16).optional(),
      path: z.string().startsWith('/').max(1024),
      bodyContains: z.string().min(1).max(4096).optional(),
      count: z.union([count, z.object({ atLeast: count.optional(), atMost: count.optional() }).strict().refine((c) => c.atLeast !== undefined || c.atMost !== undefined, 'give atLeast, atMost or both')]).optional(),
    })
    .strict(),
);

/** POST /__sandbox/hubs/{hub}/webhook-events: a synthetic event through the webhooks (cms sandbox trigger). */
export const trigger = body(
  'WebhookEvent',
  z
    .object({
      event: z.string().min(1).max(128),
      itemId: nonEmpty(64).optional(),
      editionId: nonEmpty(64).optional(),
      snapshotId: nonEmpty(64).optional(),
      webhookId: nonEmpty(64).optional(),
      /** `payload.x` paths and their values, applied to the event document. */
      set: z.record(z.string().min(1).max(256), z.unknown()).refine((r) => Object.keys(r).length <= 50, 'at most 50 fields').optional(),
    })
    .strict(),
);

/** POST /__sandbox/snapshots: the name to save under (files stay with the CLI: routes-snapshots.ts). */
export const snapshot = body('Snapshot', z.object({ name: nonEmpty(100) }));
