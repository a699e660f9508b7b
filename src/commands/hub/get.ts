import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { HUB_COLUMNS } from './_columns.js';

export default defineCommand({
  summary: 'Show a hub',
  examples: ['cms hub get demo', 'cms hub get 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [{ name: 'hub', description: 'hub id or name (default: the current hub)' }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/hubs/${await ctx.hubId(args.hub, client)}`), HUB_COLUMNS);
  },
});
