import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS } from '../item/_shared.js';

export default defineCommand({
  summary: 'Show a content item as a snapshot froze it',
  examples: ['cms snapshot item 5f1a2b3c4d5e6f7a8b9c0d1e 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c -o json'],
  args: [
    { name: 'snapshot', description: 'snapshot id', required: true },
    { name: 'item', description: 'content item id (the root or one it links to)', required: true },
  ],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/snapshots/${args.snapshot}/content-items/${args.item}`), ITEM_COLUMNS);
  },
});
