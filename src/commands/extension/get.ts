import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { EXTENSION_COLUMNS, extensionArg } from './_shared.js';

export default defineCommand({
  summary: 'Show an extension',
  examples: ['cms extension get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms extension get 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [extensionArg],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/extensions/${encodeURIComponent(args.extension)}`), EXTENSION_COLUMNS);
  },
});
