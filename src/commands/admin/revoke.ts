import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';
import { accessPath, resourceArgs } from './_shared.js';

export default defineCommand<{ hub?: string; permission?: string[]; yes?: boolean }>({
  summary: "Revoke a client's permissions on a hub or repository",
  examples: ['cms admin revoke hubs demo ci-bot --permission EDIT,SHARE --yes', 'cms admin revoke content-repositories content ci-bot --permission EDIT_CONTENT --hub demo --yes'],
  args: [...resourceArgs, { name: 'sid', description: 'the client (member) id', required: true }],
  options: [
    hubOption,
    { flags: '--permission <list>', description: 'permissions to revoke, e.g. READ,EDIT (comma list or repeated)', repeatable: true },
    yesOption,
  ],
  async run(ctx, args, opts) {
    const permissions = commaList(opts.permission);
    if (!permissions.length) throw new UsageError('Give at least one --permission, e.g. --permission READ,EDIT');
    const client = await ctx.client();
    const path = await accessPath(ctx, client, args.type, args.resource, opts.hub);
    await confirm(ctx, `Revoke ${permissions.join(', ')} from ${args.sid} on ${args.type} ${args.resource}?`, opts.yes);
    await client.delete(`${path}/members/${encodeURIComponent(args.sid)}/permissions`, { query: { permissions: permissions.join(',') } });
    return done(`Revoked ${permissions.join(', ')} from ${args.sid} on ${args.type} ${args.resource}`);
  },
});
