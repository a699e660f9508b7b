import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { MEMBER_COLUMNS, accessPath, resourceArgs } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show the permissions one client holds on a hub or repository',
  examples: ['cms admin member hubs demo ci-bot'],
  args: [...resourceArgs, { name: 'sid', description: 'the client (member) id', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const path = await accessPath(ctx, client, args.type, args.resource, opts.hub);
    return item(await client.get(`${path}/members/${encodeURIComponent(args.sid)}`), MEMBER_COLUMNS);
  },
});
