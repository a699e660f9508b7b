import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { VERSION_COLUMNS, itemArg } from './_shared.js';

export default defineCommand<{ limit: number; oldestFirst?: boolean }>({
  summary: 'List the versions of a content item, newest first',
  examples: ['cms item versions 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c', 'cms item versions 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --oldest-first -o json'],
  args: [itemArg],
  options: [{ flags: '--oldest-first', description: 'list version 1 first' }, limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const query = { sort: opts.oldestFirst ? 'version,asc' : undefined };
    return list(client.paginate(`/content-items/${args.item}/versions`, 'content-items', { query, limit: limitOf(opts) }), VERSION_COLUMNS, limitOf(opts));
  },
});
