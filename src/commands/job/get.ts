import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';

export default defineCommand({
  summary: 'Show a publishing job',
  examples: ['cms job get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms job get 5f1a2b3c4d5e6f7a8b9c0d1e --query state'],
  args: [{ name: 'job', description: 'publishing job id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/publishing-jobs/${args.job}`));
  },
});
