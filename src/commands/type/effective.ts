import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { documentOutput } from '../schema/_shared.js';
import { findType } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Print a content type with its cached schema standing alone (references to other schemas inlined)',
  examples: ['cms type effective Banner', 'cms type effective Banner --query cachedSchema.properties'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    return documentOutput(await client.get(`/content-types/${type.id}/effective-content-type`));
  },
});
