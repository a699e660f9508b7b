import { defineCommand } from '../../../cli/define.js';
import { hubOption } from '../../../cli/options.js';
import { UsageError } from '../../../core/errors.js';
import { item } from '../../../output/result.js';
import { indexArg, resolveIndex } from '../_shared.js';
import { TYPE_COLUMNS, withWebhookIds } from './_shared.js';

export default defineCommand<{ hub?: string; type?: string }>({
  summary: 'Replace the active or archived content webhook of an assigned content type',
  examples: ['cms index types recreate-webhook products 5f1a2b3c4d5e6f7a8b9c0d1e --type archived'],
  args: [indexArg, { name: 'assigned', description: 'assigned content type id', required: true }],
  options: [hubOption, { flags: '--type <kind>', description: 'which webhook', choices: ['active', 'archived'] }],
  async run(ctx, args, opts) {
    if (!opts.type) throw new UsageError('Which webhook?', 'Give --type active or --type archived.');
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    const url = `${path}/assigned-content-types/${args.assigned}`;
    await client.post(`${url}/recreate-webhook`, undefined, { query: { type: opts.type } });
    return item(withWebhookIds(await client.get(url)), TYPE_COLUMNS);
  },
});
