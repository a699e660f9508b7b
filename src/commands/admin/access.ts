import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { LINK_COLUMNS, accessPath, linkRows, resourceArgs } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'List the access operations on a hub or repository',
  examples: ['cms admin access hubs demo', 'cms admin access content-repositories content --hub demo'],
  args: resourceArgs,
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const path = await accessPath(ctx, client, args.type, args.resource, opts.hub);
    return list(linkRows(await client.get(path)), LINK_COLUMNS);
  },
});
