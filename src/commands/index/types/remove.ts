import { defineCommand } from '../../../cli/define.js';
import { hubOption } from '../../../cli/options.js';
import { done } from '../../../output/result.js';
import { indexArg, resolveIndex } from '../_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Unassign a content type from a search index (its webhooks go; its records stay)',
  examples: ['cms index types remove products 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [indexArg, { name: 'assigned', description: 'assigned content type id (see cms index types list)', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    await client.delete(`${path}/assigned-content-types/${args.assigned}`);
    return done(`Unassigned ${args.assigned}`);
  },
});
