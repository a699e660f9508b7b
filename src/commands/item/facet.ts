import { defineCommand } from '../../cli/define.js';
import { bodyFileOption, hubOption } from '../../cli/options.js';
import { buildBody } from '../../cli/input.js';
import { UsageError } from '../../core/errors.js';
import { DATE_FIELDS } from '../../server/search-indexes/search-facets.js';
import { col, item, list } from '../../output/result.js';

interface Opts {
  hub?: string;
  field?: string[];
  search?: string;
  entities?: boolean;
  sort?: string;
  size?: number;
  bodyFile?: string;
}

interface FacetAnswer {
  page: { totalElements: number };
  _facets: Record<string, { _id: string; count: number }[]>;
}

const ENUM_FILTERS = ['IN', 'EXCLUDES', 'EQ'];
const FIELD_HELP = 'Write a facet as <field>, <field>:IN|EXCLUDES|EQ:<v1,v2>, <field>:DATE:<range>[;<range>] (filter and count) or <field>:RANGE:<bound>,<bound> (count only); a range is <bound>,<bound> such as -7:DAYS,NOW or 2024-01-01,2024-01-31, or whole days such as -7:NOW or -30:-7.';

export default defineCommand<Opts>({
  summary: 'Count content items per field value or date range (facets)',
  description: [
    'Counts the active items of a hub per value of a field (schema, status, locale, folderId, contentRepositoryId, workflow.state, assignees, publishingStatus or body.<path>) or per date range (createdDate, lastModifiedDate, lastPublishedDate). A filter in a facet restricts the items every count covers. Prints facet, value and count; -o json prints the whole answer.',
    FIELD_HELP,
    'A bound is NOW, -<n>:<MINUTES|HOURS|DAYS|WEEKS|MONTHS|YEARS>, a date (a whole day) or an ISO date-time. --body-file takes a whole request {fields:[...], returnEntities}; --field adds to its fields.',
  ].join('\n\n'),
  examples: [
    'cms item facet --field schema --field locale',
    'cms item facet --field status:IN:ACTIVE,ARCHIVED --field schema',
    "cms item facet --field 'lastModifiedDate:DATE:-7:DAYS,NOW;-30:DAYS,-7:DAYS' --field assignees",
    'cms item facet --field schema --search "title:banner" --entities -o json',
    'cms item facet --body-file facets.json',
  ],
  options: [
    hubOption,
    { flags: '--field <facet>', description: 'a facet (repeatable), see above', repeatable: true },
    { flags: '--search <text>', description: 'apply a text search first (the syntax of cms item find)' },
    { flags: '--entities', description: 'also return the matching items (see -o json)' },
    { flags: '--sort <field,dir>', description: 'order of the returned items: createdDate, lastModifiedDate or label with ,asc or ,desc' },
    { flags: '--size <n>', description: 'how many items to return with --entities (default 20)', integer: true },
    bodyFileOption,
  ],
  async run(ctx, _args, opts) {
    const body = await buildBody(opts);
    const fields = [...((body.fields as unknown[] | undefined) ?? []), ...(opts.field ?? []).map(facetOf)];
    if (!fields.length) throw new UsageError('Name at least one facet with --field (or give --body-file)', FIELD_HELP);
    const request = { ...body, fields, returnEntities: opts.entities ?? body.returnEntities ?? false };
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const answer = await client.post<FacetAnswer>(`/hubs/${hubId}/content-items/facet`, request, {
      query: { query: opts.search, sort: opts.sort, size: opts.size },
    });
    if (ctx.globals.output !== 'table' || ctx.globals.query) return item(answer);
    ctx.io.note(`${answer.page.totalElements} matching items`);
    return list(countRows(answer), [col('facet'), col('value'), col('count')]);
  },
});

/** One --field value as a facet of the request. */
export function facetOf(spec: string): Record<string, unknown> {
  const [field, type, values] = splitSpec(spec);
  if (!field) throw new UsageError(`'${spec}' does not name a field`, FIELD_HELP);
  const isDate = DATE_FIELDS.includes(field);
  if (type === undefined) {
    if (isDate) throw new UsageError(`${field} is a date: give ranges, e.g. ${field}:DATE:-7:DAYS,NOW`, FIELD_HELP);
    return { facetAs: 'ENUM', field };
  }
  const kind = type.toUpperCase();
  if (!values) throw new UsageError(`'${spec}' needs values after ${type}:`, FIELD_HELP);
  if (ENUM_FILTERS.includes(kind) && !isDate) return { facetAs: 'ENUM', field, filter: { type: kind, values: values.split(',').map((v) => v.trim()) } };
  if (kind === 'DATE' && isDate) return { facetAs: 'DATE', field, filter: { type: 'DATE', values: values.split(';').map((v) => v.trim()) } };
  if (kind === 'RANGE' && isDate) {
    const [start, end] = values.split(',');
    return { facetAs: 'DATE', field, range: { start: start || undefined, end: end || undefined } };
  }
  throw new UsageError(`'${type}' does not apply to ${field}: ${isDate ? 'use DATE or RANGE' : 'use IN, EXCLUDES or EQ'}`, FIELD_HELP);
}

/** field[:type[:values]], splitting at the first two colons only (values may hold colons). */
function splitSpec(spec: string): [string, string | undefined, string | undefined] {
  const first = spec.indexOf(':');
  if (first < 0) return [spec.trim(), undefined, undefined];
  const second = spec.indexOf(':', first + 1);
  if (second < 0) return [spec.slice(0, first).trim(), spec.slice(first + 1), undefined];
  return [spec.slice(0, first).trim(), spec.slice(first + 1, second), spec.slice(second + 1)];
}

function countRows(answer: FacetAnswer) {
  return Object.entries(answer._facets).flatMap(([facet, counts]) => counts.map((c) => ({ facet, value: c._id, count: c.count })));
}
