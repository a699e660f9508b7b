import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { MEMBER_COLUMNS, accessPath, resourceArgs } from './_shared.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List the clients holding permissions on a hub or repository',
  examples: ['cms admin members hubs demo', 'cms admin members content-repositories content --hub demo -o json'],
  args: resourceArgs,
  options: [hubOption, limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const path = await accessPath(ctx, client, args.type, args.resource, opts.hub);
    return list(client.paginate(`${path}/members`, 'members', { limit: limitOf(opts) }), MEMBER_COLUMNS, limitOf(opts));
  },
});
