import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { documentOutput } from '../schema/_shared.js';
import { findType } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Print the effective schema of a content type: references inlined, allOf merged (same as type get --effective)',
  examples: ['cms type effective Banner', 'cms type effective Banner --query properties'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    return documentOutput(await client.get(`/content-types/${type.id}/effective-content-type`));
  },
});
