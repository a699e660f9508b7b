import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';
import { itemArg } from './_shared.js';

export default defineCommand<{ limit: number }>({
  summary: 'Show what made each version of a content item: action, user and date',
  examples: ['cms item history 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c'],
  args: [itemArg],
  options: [limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return list(client.paginate(`/content-items/${args.item}/history`, 'history', { limit: limitOf(opts) }), [col('version'), col('action'), col('user'), col('date')], limitOf(opts));
  },
});
