import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { INDEX_COLUMNS, indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Archive a search index (and its replicas): it keeps its records but takes no changes',
  examples: ['cms index archive products'],
  args: [indexArg],
  options: [hubOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    return item(await client.post(`${path}/archive`, {}), INDEX_COLUMNS);
  },
});
