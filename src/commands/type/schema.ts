import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { documentOutput } from '../schema/_shared.js';
import { findType } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: "Print a content type's cached schema: the version its items are validated against",
  examples: ['cms type schema Banner', 'cms type schema Banner --query properties'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    const cached = await client.get<{ cachedSchema: unknown }>(`/content-types/${type.id}/schema`);
    return documentOutput(cached.cachedSchema);
  },
});
