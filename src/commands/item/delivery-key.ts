import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { itemArg, withCurrentVersion } from './_shared.js';

export default defineCommand<{ remove?: boolean }>({
  summary: "Set or remove a content item's delivery key (Content Delivery 2)",
  description:
    'A key is 1-150 letters, digits, hyphens, underscores and slashes, not starting with a slash nor holding "//", unique in the hub. The hub needs the Content Delivery 2 module. Find an item by key with `cms item get --key <key>`.',
  examples: ['cms item delivery-key 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c pages/home', 'cms item delivery-key 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --remove'],
  args: [itemArg, { name: 'key', description: 'the delivery key' }],
  options: [{ flags: '--remove', description: 'remove the key instead' }],
  run(ctx, args, opts) {
    if (!args.key === !opts.remove) throw new UsageError('Give either a key or --remove');
    const deliveryKey = opts.remove ? null : (args.key as string);
    return withCurrentVersion(ctx, args.item, (client, version) => client.patch(`/content-items/${args.item}/delivery-key`, { deliveryKey, version }));
  },
});
