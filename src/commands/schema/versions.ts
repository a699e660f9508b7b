import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';
import { findSchema } from './_shared.js';

export default defineCommand<{ hub?: string; limit: number }>({
  summary: 'List the versions of a content type schema, newest first',
  examples: ['cms schema versions https://schemas.example.com/banner.json', 'cms schema versions 5f1a2b3c4d5e6f7a8b9c0d1e -o json --query "[].version"'],
  args: [{ name: 'schema', description: 'schema id, or its schema id URL in the hub', required: true }],
  options: [hubOption, limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const schema = await findSchema(ctx, client, args.schema, opts.hub);
    const versions = client.paginate(`/content-type-schemas/${schema.id}/history`, 'content-type-schemas', { limit: limitOf(opts) });
    const columns = [col('version'), col('level', 'validationLevel'), col('status'), col('by', 'lastModifiedBy'), col('date', 'lastModifiedDate')];
    return list(versions, columns, limitOf(opts));
  },
});
