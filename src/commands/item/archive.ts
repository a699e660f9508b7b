import { defineCommand } from '../../cli/define.js';
import { itemArg, withCurrentVersion } from './_shared.js';

export default defineCommand({
  summary: 'Archive a content item (unarchive brings it back)',
  examples: ['cms item archive 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c'],
  args: [itemArg],
  run: (ctx, args) => withCurrentVersion(ctx, args.item, (client, version) => client.post(`/content-items/${args.item}/archive`, { version })),
});
