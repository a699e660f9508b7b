import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { col, item } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; period?: string }>({
  summary: 'Show the records and usage figures of a search index',
  examples: ['cms index stats products', 'cms index stats products --period week -o json'],
  args: [indexArg],
  options: [hubOption, { flags: '--period <period>', description: 'usage over the last day, week, month or year (default month)', choices: ['day', 'week', 'month', 'year'] }],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    return item(await client.get(`${path}/stats`, { query: { period: opts.period } }), [
      col('records', 'totalRecords', 'count'),
      col('bytes', 'totalRecordSize', 'count'),
      col('average bytes', 'averageRecordSize', 'average'),
      col('searches', 'usage.numberOfSearches.value', 'count'),
      col('average ms', 'usage.averageResponseTime.value', 'average'),
      col('period'),
    ]);
  },
});
