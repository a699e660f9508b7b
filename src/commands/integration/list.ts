import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { INTEGRATION_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List every integration of a hub (commerce and marketing)',
  examples: ['cms integration list', 'cms integration list --hub demo -o json'],
  options: [hubOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return list(client.paginate(`/hubs/${hubId}/integrations`, 'integrations', { limit: limitOf(opts) }), INTEGRATION_COLUMNS, limitOf(opts));
  },
});
