import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { WEBHOOK_COLUMNS } from './_columns.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List the webhooks of a hub',
  examples: ['cms webhook list', 'cms webhook list --hub demo -o json'],
  options: [hubOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return list(client.paginate(`/hubs/${hubId}/webhooks`, 'webhooks', { limit: limitOf(opts) }), WEBHOOK_COLUMNS, limitOf(opts));
  },
});
