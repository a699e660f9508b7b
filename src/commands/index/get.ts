import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { INDEX_COLUMNS, indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show a search index',
  examples: ['cms index get products', 'cms index get 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [indexArg],
  options: [hubOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    return item(await client.get(path), INDEX_COLUMNS);
  },
});
