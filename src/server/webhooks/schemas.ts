import { body, nonEmpty, z } from '../core/validate.js';
import { EVENT_PREFIX, WEBHOOK_EVENTS } from './store.js';

const eventName = z
  .string()
  .refine((e) => (WEBHOOK_EVENTS as readonly string[]).includes(e.startsWith(EVENT_PREFIX) ? e.slice(EVENT_PREFIX.length) : e), {
    message: `must be one of ${WEBHOOK_EVENTS.join(', ')}`,
  });
/** http(s) receivers, or a receiver inside the sandbox (sandbox://search-index/…); {{…}} tags may hold spaces (a template). */
const handler = z
  .string()
  .max(2048)
  .regex(/^(https?|sandbox):\/\/(?:[^\s{]|\{(?!\{)|\{\{[^{}\n]*\}\}|\{\{\{[^{}\n]*\}\}\})+$/, 'must be an http(s) URL');
const header = z.object({
  key: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name'),
  value: z.string().max(4096).nullable(),
  secret: z.boolean().nullable().optional(),
});
const filter = z.object({
  type: z.enum(['equal', 'in']),
  arguments: z.array(z.union([z.object({ jsonPath: nonEmpty(512) }), z.object({ value: z.unknown() })])).length(2, 'needs a jsonPath and a value'),
});

const fields = {
  label: nonEmpty(255),
  events: z.array(eventName).min(1, 'must name at least one event').max(50),
  handlers: z.array(handler).min(1, 'must name at least one handler URL').max(10),
  active: z.boolean(),
  secret: z.string().max(1024).nullable(),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  headers: z.array(header).max(50),
  filters: z.array(filter).max(20),
  customPayload: z.object({ type: z.literal('text/x-handlebars-template'), value: z.string().max(100_000) }).nullable(),
  notifications: z.array(z.unknown()).max(20),
};

export const create = body(
  'Webhook',
  z.object({
    ...fields,
    active: fields.active.default(true),
    secret: fields.secret.optional(),
    method: fields.method.default('POST'),
    headers: fields.headers.default([]),
    filters: fields.filters.default([]),
    customPayload: fields.customPayload.optional(),
    notifications: fields.notifications.default([]),
  }),
);

export const update = body('Webhook', z.object(fields).partial());
