import { defineCommand } from '../../cli/define.js';
import { checkDay } from '../../cli/dates.js';
import { hubOption } from '../../cli/options.js';
import { col, item, list, type Column } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

const REPORTS = ['top-searches', 'top-hits', 'searches-with-no-results', 'top-filters-no-result-search', 'users-count', 'searches-count', 'no-results-rate'] as const;

/** Table columns per report: top lists are lists, counts are one figure plus a row per day. */
const COLUMNS: Record<(typeof REPORTS)[number], Column[]> = {
  'top-searches': [col('search'), col('count', 'count', 'count'), col('hits', 'nbHits', 'count'), col('ctr', 'clickThroughRate', 'rate'), col('conversion', 'conversionRate', 'rate'), col('position', 'averageClickPosition', 'average')],
  'top-hits': [col('hit'), col('count', 'count', 'count')],
  'searches-with-no-results': [col('search'), col('count', 'count', 'count'), col('with filters', 'withFilterCount', 'count')],
  'top-filters-no-result-search': [col('count', 'count', 'count'), col('filters', (e: { values: { attribute: string; operator: string; value: string }[] }) => e.values.map((v) => `${v.attribute}${v.operator}${v.value}`).join(' AND '))],
  'users-count': [col('date'), col('count', 'count', 'count')],
  'searches-count': [col('date'), col('count', 'count', 'count')],
  'no-results-rate': [col('date'), col('count', 'count', 'count'), col('no results', 'noResultCount', 'count'), col('rate', 'rate', 'rate')],
};

interface Flags {
  hub?: string;
  start?: string;
  end?: string;
  tags?: string;
  includeReplicas?: boolean;
  limit?: number;
  offset?: number;
  search?: string;
  clickAnalytics?: boolean;
  orderBy?: string;
  direction?: string;
}

export default defineCommand<Flags>({
  summary: 'Read a search analytics report of an index',
  description: [
    'Reports: top-searches, top-hits, searches-with-no-results, top-filters-no-result-search (needs --search), users-count, searches-count, no-results-rate.',
    'The period defaults to 7 days ago (00:00:00 UTC) through today (23:59:59 UTC) on the sandbox clock. --tags filters by analytics tags: tag, a AND b, a OR b, parentheses, "quoted tag". With --click-analytics, top-searches adds click-through rate, conversion rate and average click position.',
    'In table mode the count reports print one row per day; -o json prints the whole answer. On a terminal counts are grouped (12,345) and rates are percentages to one decimal (33.3%); piped rows and -o json keep the numbers as the service sent them.',
  ].join('\n\n'),
  examples: [
    'cms index analytics products top-searches --click-analytics --order-by clickThroughRate',
    'cms index analytics products searches-count --start 2031-05-01 --end 2031-05-07 --tags "web OR mobile"',
    'cms index analytics products top-filters-no-result-search --search boots -o json',
  ],
  args: [indexArg, { name: 'report', description: 'which report', required: true, choices: REPORTS }],
  options: [
    hubOption,
    { flags: '--start <date>', description: 'first day, YYYY-MM-DD' },
    { flags: '--end <date>', description: 'last day, YYYY-MM-DD' },
    { flags: '--tags <expression>', description: 'analytics tags: web, "web AND mobile", "(a OR b) AND c"' },
    { flags: '--include-replicas', description: 'count the searches of the replicas too (primary indexes only)' },
    { flags: '--limit <n>', description: 'entries of a top list (0..1000, default 10)', integer: true },
    { flags: '--offset <n>', description: 'entries of a top list to skip', integer: true },
    { flags: '--search <text>', description: 'one exact search text (top-hits, top-filters-no-result-search)' },
    { flags: '--click-analytics', description: 'add click and conversion figures (top-searches)' },
    { flags: '--order-by <field>', description: 'top-searches order', choices: ['searchCount', 'clickThroughRate', 'conversionRate', 'averageClickPosition'] },
    { flags: '--direction <dir>', description: 'asc or desc (default desc)', choices: ['asc', 'desc'] },
  ],
  async run(ctx, args, opts) {
    // Checked before any request: a day that is not in the calendar is the user's to fix.
    const days = { start: checkDay(opts.start, '--start'), end: checkDay(opts.end, '--end') };
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    const report = args.report as (typeof REPORTS)[number];
    const query = {
      startDate: days.start,
      endDate: days.end,
      tags: opts.tags,
      includeReplicas: opts.includeReplicas ? 'true' : undefined,
      limit: opts.limit,
      offset: opts.offset,
      search: opts.search,
      clickAnalytics: opts.clickAnalytics ? 'true' : undefined,
      orderBy: opts.orderBy,
      direction: opts.direction,
    };
    const answer = await client.get<{ _embedded?: Record<string, unknown[]>; dates?: unknown[] }>(`${path}/analytics/${report}`, { query });
    if (ctx.globals.output !== 'table') return item(answer);
    return list(answer._embedded?.[report] ?? answer.dates ?? [], COLUMNS[report]);
  },
});
