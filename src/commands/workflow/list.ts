import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { STATE_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List the workflow states of a hub',
  examples: ['cms workflow list', 'cms workflow list -o json --query "[].label"'],
  options: [hubOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return list(client.paginate(`/hubs/${hubId}/workflow-states`, 'workflow-states', { limit: limitOf(opts) }), STATE_COLUMNS, limitOf(opts));
  },
});
