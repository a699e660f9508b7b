import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS } from './_shared.js';

export default defineCommand({
  summary: 'Take an item out of publication',
  examples: ['cms item unpublish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11'],
  args: [{ name: 'item', description: 'content item id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    await client.post(`/content-items/${args.item}/unpublish`, {});
    return item(await client.get(`/content-items/${args.item}`), ITEM_COLUMNS);
  },
});
