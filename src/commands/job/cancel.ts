import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';

export default defineCommand({
  summary: 'Cancel a publishing job that has not run yet',
  examples: ['cms job cancel 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [{ name: 'job', description: 'publishing job id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.patch(`/publishing-jobs/${args.job}`, { state: 'CANCELLED' }));
  },
});
