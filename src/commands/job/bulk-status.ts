import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { BULK_JOB_COLUMNS, bulkJobPath, resultsOf, type BulkJob } from './_bulk.js';

export default defineCommand<{ hub?: string; results?: boolean }>({
  summary: 'Show a bulk job: its status and how many items succeeded',
  description: 'With --results, prints the result of each item instead (exit 3 when some failed). -o json shows the whole job.',
  examples: ['cms job bulk-status 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms job bulk-status 5f1a2b3c4d5e6f7a8b9c0d1e --results'],
  args: [{ name: 'job', description: 'bulk job id', required: true }],
  options: [hubOption, { flags: '--results', description: 'print the result of each item' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const job = await client.get<BulkJob>(bulkJobPath(await ctx.hubId(opts.hub, client), args.job));
    return opts.results ? resultsOf(job) : item(job, BULK_JOB_COLUMNS);
  },
});
