import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show a webhook (secret header values are never shown)',
  examples: ['cms webhook get 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [{ name: 'webhook', description: 'webhook id', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return item(await client.get(`/hubs/${await ctx.hubId(opts.hub, client)}/webhooks/${args.webhook}`));
  },
});
