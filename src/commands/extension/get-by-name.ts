import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { EXTENSION_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show the extension of a hub with the given name',
  examples: ['cms extension get-by-name rich-text', 'cms extension get-by-name rich-text --hub demo -o json'],
  args: [{ name: 'name', description: 'extension name', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return item(await client.get(`/hubs/${hubId}/extensions/${encodeURIComponent(args.name)}`), EXTENSION_COLUMNS);
  },
});
