import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { col, item, list } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

const HIT_COLUMNS = [col('id', 'objectID'), col('label'), col('title'), col('locale'), col('schema')];

interface Flags {
  hub?: string;
  filter?: string[];
  facet?: string[];
  clickAnalytics?: boolean;
  tag?: string[];
  user?: string;
  hitsPerPage?: number;
  page?: number;
  analytics?: boolean;
}

export default defineCommand<Flags>({
  summary: 'Search the records of an index (the sandbox stand-in for the search provider)',
  description:
    'Every word must appear in a record (whole words; case and accents ignored); an empty text matches everything. --filter takes attribute:value or attribute <op> number (<, <=, =, !=, >=, >); several are joined by AND. Each --facet is attribute:value; values of one attribute given together (color:red,color:blue) match either. The query is recorded for analytics with its tags and user.',
  examples: ['cms index query products "running shoes"', 'cms index query products shoes --filter color:red --filter "price < 60" --tag web --user u1 --click-analytics -o json', 'cms index query products "" --facet color:red,color:blue'],
  args: [indexArg, { name: 'text', description: 'what to search for ("" for everything)', required: true }],
  options: [
    hubOption,
    { flags: '--filter <condition>', description: 'attribute:value or attribute <op> number (repeatable, joined by AND)', repeatable: true },
    { flags: '--facet <attribute:value>', description: 'facet filter; a comma list matches any of its values (repeatable, joined by AND)', repeatable: true },
    { flags: '--click-analytics', description: 'return a queryID for click and conversion events' },
    { flags: '--tag <tag>', description: 'analytics tag (repeatable)', repeatable: true },
    { flags: '--user <token>', description: 'user token, for users-count' },
    { flags: '--hits-per-page <n>', description: 'hits per page (default 20, or the index settings)', integer: true },
    { flags: '--page <n>', description: 'page, from 0', integer: true },
    { flags: '--no-analytics', description: 'keep this query out of analytics' },
  ],
  async run(ctx, args, opts) {
    const { client, id } = await resolveIndex(ctx, args.index, opts.hub);
    const body = {
      query: String(args.text),
      filters: opts.filter?.length ? opts.filter.join(' AND ') : undefined,
      facetFilters: opts.facet?.map((f) => (f.includes(',') ? f.split(',') : f)),
      clickAnalytics: opts.clickAnalytics ?? false,
      analytics: opts.analytics ?? true,
      analyticsTags: opts.tag ?? [],
      userToken: opts.user,
      hitsPerPage: opts.hitsPerPage,
      page: opts.page,
    };
    const answer = await client.post<{ hits: Record<string, unknown>[]; nbHits: number; page: number; nbPages: number }>(`/__sandbox/search-indexes/${id}/query`, body);
    if (ctx.globals.output !== 'table') return item(answer);
    // One row per hit; the counts are chatter for people (stderr, on a terminal).
    ctx.io.note(`${answer.nbHits} hit${answer.nbHits === 1 ? '' : 's'}, page ${answer.page + 1} of ${Math.max(answer.nbPages, 1)}`);
    return list(answer.hits, HIT_COLUMNS);
  },
});
