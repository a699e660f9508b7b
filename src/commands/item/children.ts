import { defineCommand } from '../../cli/define.js';
import { list } from '../../output/result.js';
import { ITEM_COLUMNS, itemArg, labelWorkflow } from './_shared.js';

export default defineCommand({
  summary: 'List a content item and every item its content links reach, root first',
  examples: ['cms item children 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c', 'cms item children 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c -o json'],
  args: [itemArg],
  async run(ctx, args) {
    const client = await ctx.client();
    const graph = await client.get<{ _embedded: { 'content-items': unknown[] } }>('/content-items/search/findByIdWithChildren', { query: { id: args.item } });
    return list(labelWorkflow(ctx, client, graph._embedded['content-items']), ITEM_COLUMNS);
  },
});
