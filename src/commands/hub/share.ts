import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';

export default defineCommand<{ user: string; permission?: string[] }>({
  summary: 'Grant another client (user) permissions on a hub',
  examples: ['cms hub share demo --user ci-bot --permission READ,EDIT'],
  args: [{ name: 'hub', description: 'hub id or name', required: true }],
  options: [
    { flags: '--user <client-id>', description: 'the client to grant to' },
    { flags: '--permission <list>', description: 'READ, EDIT, DELETE, SHARE (comma list or repeated)', repeatable: true },
  ],
  async run(ctx, args, opts) {
    const permissions = commaList(opts.permission);
    if (!opts.user || !permissions.length) throw new UsageError('Give --user and at least one --permission');
    const client = await ctx.client();
    const hubId = await ctx.hubId(args.hub, client);
    await client.post(`/hubs/${hubId}/share`, { user: opts.user, additionalPermissions: permissions });
    return done(`Granted ${permissions.join(', ')} on hub ${hubId} to ${opts.user}`);
  },
});
