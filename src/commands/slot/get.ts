import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { SLOT_COLUMNS } from './_shared.js';

export default defineCommand({
  summary: 'Show a slot',
  examples: ['cms slot get 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c -o json'],
  args: [{ name: 'slot', description: 'slot (content item) id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/content-items/${args.slot}`), SLOT_COLUMNS);
  },
});
