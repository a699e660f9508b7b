import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Delete a hub and everything in it',
  examples: ['cms hub delete old-demo --yes'],
  args: [{ name: 'hub', description: 'hub id or name', required: true }],
  options: [yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(args.hub, client);
    await confirm(ctx, `Delete hub ${args.hub} and all its repositories and content?`, opts.yes);
    await client.delete(`/hubs/${hubId}`);
    return done(`Deleted hub ${args.hub}`);
  },
});
