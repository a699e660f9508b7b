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

export { z };
