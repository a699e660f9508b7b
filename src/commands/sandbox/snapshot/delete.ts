import { defineCommand } from '../../../cli/define.js';
import { done } from '../../../output/result.js';

export default defineCommand({
  summary: 'Delete a named snapshot of the sandbox',
  examples: ['cms sandbox snapshot save old && cms sandbox snapshot delete old'],
  args: [{ name: 'name', description: 'snapshot name', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    await client.delete(`/__sandbox/snapshots/${encodeURIComponent(args.name as string)}`);
    return done(`Deleted the snapshot '${args.name}'`);
  },
});
