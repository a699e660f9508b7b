import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { SCHEMA_COLUMNS, documentOutput, findSchema } from './_shared.js';

export default defineCommand<{ hub?: string; version?: number; document?: boolean }>({
  summary: 'Show a content type schema, or one of its versions',
  examples: ['cms schema get https://schemas.example.com/banner.json', 'cms schema get 5f1a2b3c4d5e6f7a8b9c0d1e --version 1 --document'],
  args: [{ name: 'schema', description: 'schema id, or its schema id URL in the hub', required: true }],
  options: [
    hubOption,
    { flags: '--version <n>', description: 'an earlier version', integer: true },
    { flags: '--document', description: 'print only the JSON Schema document' },
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    let schema = await findSchema(ctx, client, args.schema, opts.hub);
    if (opts.version !== undefined) schema = await client.get(`/content-type-schemas/${schema.id}/${opts.version}`);
    return opts.document ? documentOutput(JSON.parse(schema.body)) : item(schema, SCHEMA_COLUMNS);
  },
});
