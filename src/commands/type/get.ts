import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { TYPE_COLUMNS, findType } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show a content type',
  examples: ['cms type get Banner', 'cms type get https://schema.example.com/banner.json -o json'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return item(await findType(ctx, client, args.type, opts.hub), TYPE_COLUMNS);
  },
});
