import { defineCommand } from '../../../cli/define.js';
import { hubOption } from '../../../cli/options.js';
import { list } from '../../../output/result.js';
import { indexArg, resolveIndex } from '../_shared.js';
import { TYPE_COLUMNS, withWebhookIds } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'List the content types assigned to a search index',
  examples: ['cms index types list products'],
  args: [indexArg],
  options: [hubOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    const page = await client.get<{ _embedded: { 'assigned-content-types': Record<string, unknown>[] } }>(`${path}/assigned-content-types`);
    return list(page._embedded['assigned-content-types'].map(withWebhookIds), TYPE_COLUMNS);
  },
});
