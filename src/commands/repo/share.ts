import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';

export default defineCommand<{ hub?: string; user?: string; permission?: string[] }>({
  summary: 'Grant another client (user) permissions on a repository',
  examples: ['cms repo share content --user ci-bot --permission READ,EDIT'],
  args: [{ name: 'repo', description: 'repository id or name', required: true }],
  options: [
    hubOption,
    { flags: '--user <client-id>', description: 'the client to grant to' },
    { flags: '--permission <list>', description: 'READ, EDIT, DELETE, SHARE (comma list or repeated)', repeatable: true },
  ],
  async run(ctx, args, opts) {
    const permissions = commaList(opts.permission);
    if (!opts.user || !permissions.length) throw new UsageError('Give --user and at least one --permission');
    const client = await ctx.client();
    const id = await repoId(ctx, args.repo, opts.hub, client);
    await client.post(`/content-repositories/${id}/share`, { user: opts.user, additionalPermissions: permissions });
    return done(`Granted ${permissions.join(', ')} on repository ${args.repo} to ${opts.user}`);
  },
});
