import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { HUB_COLUMNS } from './_columns.js';

export default defineCommand<{ limit: number }>({
  summary: 'List the hubs this client can see',
  examples: ['cms hub list', 'cms hub list -o json --query "[].name"'],
  options: [limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    return list(client.paginate('/hubs', 'hubs', { limit: limitOf(opts) }), HUB_COLUMNS, limitOf(opts));
  },
});
