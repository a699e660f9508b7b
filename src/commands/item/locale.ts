import { defineCommand } from '../../cli/define.js';
import { itemArg, withCurrentVersion } from './_shared.js';

export default defineCommand({
  summary: "Set a content item's locale (one of its repository's item locales, if it has any)",
  examples: ['cms item locale 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c en-GB'],
  args: [itemArg, { name: 'locale', description: 'locale such as en-GB', required: true }],
  run: (ctx, args) => withCurrentVersion(ctx, args.item, (client, version) => client.post(`/content-items/${args.item}/locale`, { locale: args.locale, version })),
});
