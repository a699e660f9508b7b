import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Delete a webhook and its delivery log',
  examples: ['cms webhook delete 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [{ name: 'webhook', description: 'webhook id', required: true }],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    await confirm(ctx, `Delete webhook ${args.webhook}?`, opts.yes);
    await client.delete(`/hubs/${hubId}/webhooks/${args.webhook}`);
    return done(`Deleted webhook ${args.webhook}`);
  },
});
