import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { JOB_COLUMNS } from './_columns.js';

export default defineCommand<{ snapshot?: string; limit: number }>({
  summary: 'List the publishing jobs of a snapshot',
  examples: ['cms job list --snapshot 5f1a2b3c4d5e6f7a8b9c0d1e'],
  options: [{ flags: '--snapshot <id>', description: 'snapshot whose jobs to list' }, limitOption, allOption],
  async run(ctx, _args, opts) {
    if (!opts.snapshot) throw new UsageError('Give --snapshot <id>');
    const client = await ctx.client();
    return list(client.paginate(`/snapshots/${opts.snapshot}/publishing-jobs`, 'publishing-jobs', { limit: limitOf(opts) }), JOB_COLUMNS, limitOf(opts));
  },
});
