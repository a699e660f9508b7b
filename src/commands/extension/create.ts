import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { EXTENSION_COLUMNS, EXTENSION_OPTIONS, extensionBody, type ExtensionFlags } from './_shared.js';

export default defineCommand<ExtensionFlags & { hub?: string }>({
  summary: 'Create an extension (name, label, url and category are required)',
  examples: [
    'cms extension create --name rich-text --label "Rich text" --url https://ext.example.com/rte/ --category CONTENT_FIELD',
    'cms extension create --body-file extension.json --hub demo',
  ],
  options: [hubOption, ...EXTENSION_OPTIONS],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return item(await client.post(`/hubs/${hubId}/extensions`, await extensionBody(opts)), EXTENSION_COLUMNS);
  },
});
