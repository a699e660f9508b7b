import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';
import { itemArg } from './_shared.js';

export default defineCommand<{ limit: number }>({
  summary: 'List the variants of a content item in other locales',
  examples: ['cms item localizations 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c'],
  args: [itemArg],
  options: [limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const columns = [col('id'), col('locale'), col('label'), col('repository', 'contentRepositoryId'), col('version')];
    return list(client.paginate(`/content-items/${args.item}/localizations`, 'content-items', { limit: limitOf(opts) }), columns, limitOf(opts));
  },
});
