import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show the search API key of an index (for X-Search-Api-Key on queries)',
  examples: ['cms index key products', 'cms index key products -o json --query key'],
  args: [indexArg],
  options: [hubOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    const index = await client.get<{ _links: Record<string, { href: string }> }>(path);
    return item(await client.get(index._links['hub-search-key']!.href));
  },
});
