import { z } from 'zod';
import { validationFailed, type ErrorDetail } from './errors.js';

/** A request body schema with the entity name its errors carry. */
export interface BodySchema<S extends z.ZodType = z.ZodType> {
  entity: string;
  schema: S;
}

export const body = <S extends z.ZodType>(entity: string, schema: S): BodySchema<S> => ({ entity, schema });

/** The validated input type of a body schema, for handlers (a type-only import). */
export type Input<B extends BodySchema> = z.output<B['schema']>;

/**
 * Parses a value with a zod schema. Unknown and read-only fields are dropped (clients send back
 * whole resources they fetched); each problem becomes one error entry naming its property.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, entity: string): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw validationFailed(result.error.issues.map((issue) => toDetail(issue, entity)));
}

function toDetail(issue: z.core.$ZodIssue, entity: string): ErrorDetail {
  const property = issue.path.map(String).join('.') || undefined;
  return {
    entity,
    property,
    invalidValue: 'input' in issue ? (issue.input ?? null) : null,
    message: property ? `${property}: ${issue.message}` : issue.message,
  };
}

/** A string that must contain something other than whitespace. */
export const nonEmpty = (max = 1024) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim().length > 0, 'must not be empty');

export const optionalNonEmpty = (max = 1024) => nonEmpty(max).optional();

// Fields that more than one family's body schemas take (an item's id, version and assignees are
// also what a bulk job's entries name): one definition, so the rules cannot drift apart.

/** A content item id (a UUID). */
export const contentItemId = () =>
  z.string({ error: 'is required' }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a content item id (a UUID)');

/** The version a write is based on. */
export const versionNumber = () =>
  z.number({ error: (i) => (i.input === undefined ? 'is required (the current version)' : 'must be a number') }).int('must be an integer').min(1);

/** User ids an item is assigned to. */
export const assignees = () => z.array(nonEmpty(255)).max(100);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO 8601 date-time with a zone (Z or an offset), normalized to UTC with milliseconds so
 * stored dates compare as strings (range searches run in SQL on them).
 */
export const isoDateTime = () =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .refine((s) => ISO_DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time such as 2026-12-24T09:00:00Z')
    .transform((s) => new Date(s).toISOString());

/** Free text that clients may send as null (they send back what they fetched): null means empty. */
export const optionalText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .transform((s) => s ?? '');

export { z };
