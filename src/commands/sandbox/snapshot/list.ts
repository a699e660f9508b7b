import { defineCommand } from '../../../cli/define.js';
import { col, list } from '../../../output/result.js';

export default defineCommand({
  summary: 'List the named snapshots of the sandbox',
  examples: ['cms sandbox snapshot list', 'cms sandbox snapshot list -o json'],
  async run(ctx) {
    const client = await ctx.client();
    const { snapshots } = await client.get<{ snapshots: unknown[] }>('/__sandbox/snapshots');
    return list(snapshots, [
      col('name'),
      col('createdDate'),
      col('hubs', (s: { counts?: { hubs: number } }) => s.counts?.hubs ?? ''),
      col('items', (s: { counts?: { items: number } }) => s.counts?.items ?? ''),
      col('bytes'),
      col('problem'),
    ]);
  },
});
