import { defineCommand } from '../../../cli/define.js';
import { hubOption } from '../../../cli/options.js';
import { UsageError } from '../../../core/errors.js';
import { item } from '../../../output/result.js';
import { indexArg, resolveIndex } from '../_shared.js';
import { TYPE_COLUMNS, withWebhookIds } from './_shared.js';

export default defineCommand<{ hub?: string; type?: string }>({
  summary: 'Assign a content type to a search index (creates the webhooks that keep it current)',
  examples: ['cms index types add products --type https://schemas.example.com/product.json'],
  args: [indexArg],
  options: [hubOption, { flags: '--type <uri>', description: 'content type URI of the hub' }],
  async run(ctx, args, opts) {
    if (!opts.type) throw new UsageError('Which content type?', 'Give its URI with --type.');
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    return item(withWebhookIds(await client.post(`${path}/assigned-content-types`, { contentTypeUri: opts.type })), TYPE_COLUMNS);
  },
});
