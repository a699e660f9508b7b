import { body, nonEmpty, z } from '../core/validate.js';
import { DATE_FIELDS, ENUM_FIELDS, enumFieldPath } from './search-facets.js';
import { parseBound, parseRangeText } from './search-dates.js';

// Body schemas of this family: see core/route-table.ts (body: '<family>.<name>').

const BOUND_HELP = 'NOW, -7:DAYS (MINUTES, HOURS, DAYS, WEEKS, MONTHS, YEARS), 2024-05-01 or 2024-05-01T10:30:00Z';

const enumField = nonEmpty(500).refine((f) => enumFieldPath(f) !== null, {
  message: `must be one of ${ENUM_FIELDS.join(', ')} or a body path such as body._meta.name`,
});

const enumFilter = z
  .object({
    type: z.enum(['IN', 'EXCLUDES', 'EQ']),
    values: z.array(z.string()).min(1, 'must hold at least one value').max(100),
    includeWithMissingField: z.boolean().optional(),
  })
  .refine((f) => f.type !== 'EQ' || f.values.length === 1, { message: 'EQ takes exactly one value', path: ['values'] });

const bound = z.string().refine((b) => parseBound(b) !== null, { message: `must be a date bound: ${BOUND_HELP}` });
const rangeText = z.string().refine((r) => parseRangeText(r) !== null, { message: `must be a range <bound>,<bound> (a bound is ${BOUND_HELP}) or days such as -7:NOW` });

const enumFacet = z.object({
  facetAs: z.literal('ENUM'),
  field: enumField,
  name: z.string().max(200).optional(),
  filter: enumFilter.optional(),
});

const dateFacet = z
  .object({
    facetAs: z.literal('DATE'),
    field: z.enum(DATE_FIELDS as [string, ...string[]], { error: `must be one of ${DATE_FIELDS.join(', ')}` }),
    name: z.string().max(200).optional(),
    range: z.object({ start: bound.optional(), end: bound.optional() }).optional(),
    filter: z
      .object({
        type: z.literal('DATE'),
        values: z.array(rangeText).min(1, 'must hold at least one range').max(20),
        includeWithMissingField: z.boolean().optional(),
      })
      .optional(),
  })
  .refine((f) => f.range || f.filter, { message: 'a DATE facet needs a range or a filter of ranges' });

const facetField = z.discriminatedUnion('facetAs', [enumFacet, dateFacet], { error: "facetAs must be 'ENUM' or 'DATE'" });

export const facet = body(
  'FacetQuery',
  z.object({
    fields: z
      .array(facetField, { error: (i) => (i.input === undefined ? 'is required' : 'must be an array of facets') })
      .max(50)
      .refine((fields) => new Set(fields.map((f) => f.name || f.field)).size === fields.length, {
        message: 'two facets have the same name; give them distinct names',
      }),
    returnEntities: z.boolean().optional(),
  }),
);
