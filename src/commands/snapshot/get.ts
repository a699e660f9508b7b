import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { SNAPSHOT_COLUMNS } from './_columns.js';

export default defineCommand({
  summary: 'Show a snapshot',
  examples: ['cms snapshot get 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [{ name: 'snapshot', description: 'snapshot id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/snapshots/${args.snapshot}`), SNAPSHOT_COLUMNS);
  },
});
