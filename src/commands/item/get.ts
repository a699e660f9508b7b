import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS, fetchItem } from './_shared.js';

export default defineCommand<{ hub?: string; version?: number; key?: string }>({
  summary: 'Show a content item (or one of its versions, or the item holding a delivery key)',
  examples: ['cms item get 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c', 'cms item get 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --version 2 -o json', 'cms item get --key news/launch'],
  args: [{ name: 'item', description: 'content item id (not needed with --key)' }],
  options: [
    { flags: '--version <n>', description: 'an earlier version', integer: true },
    { flags: '--key <deliveryKey>', description: 'find the item of the hub holding this delivery key' },
    hubOption,
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    if (opts.key) {
      const hubId = await ctx.hubId(opts.hub, client);
      return item(await client.get(`/hubs/${hubId}/content-items/delivery-key`, { query: { key: opts.key } }), ITEM_COLUMNS);
    }
    if (!args.item) throw new UsageError('Name the item: cms item get <id>, or find it with --key <deliveryKey>.');
    return item(await fetchItem(client, args.item, opts.version), ITEM_COLUMNS);
  },
});
