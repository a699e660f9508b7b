import { defineCommand } from '../../cli/define.js';
import { list } from '../../output/result.js';
import { CONFLICT_COLUMNS, editionArg } from './_edition-slots.js';

export default defineCommand({
  summary: 'List the conflicts of an edition: content items its snapshots hold at different versions',
  description: 'An edition with unresolved conflicts cannot be scheduled; choose a version with `cms edition resolve`.',
  examples: ['cms edition conflicts 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms edition conflicts 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [editionArg],
  async run(ctx, args) {
    const client = await ctx.client();
    const answer = await client.get<{ _embedded: { conflicts: unknown[] } }>(`/editions/${args.edition}/conflicts`);
    return list(answer._embedded.conflicts, CONFLICT_COLUMNS);
  },
});
