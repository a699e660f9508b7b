import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { REPO_COLUMNS } from './_columns.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List the repositories of a hub that have a feature',
  examples: ['cms repo find-by-feature slots'],
  args: [{ name: 'feature', description: 'feature name, e.g. slots', required: true }],
  options: [hubOption, limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const items = client.paginate(`/hubs/${hubId}/content-repositories/search/findByFeaturesContaining`, 'content-repositories', {
      query: { feature: args.feature },
      limit: limitOf(opts),
    });
    return list(items, REPO_COLUMNS, limitOf(opts));
  },
});
