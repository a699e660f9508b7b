import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { REPO_COLUMNS } from './_columns.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List the repositories of a hub',
  examples: ['cms repo list', 'cms repo list --hub demo -o json'],
  options: [hubOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return list(client.paginate(`/hubs/${hubId}/content-repositories`, 'content-repositories', { limit: limitOf(opts) }), REPO_COLUMNS, limitOf(opts));
  },
});
