import { defineCommand } from '../../cli/define.js';
import { readJsonObject } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { documentOutput, findSchema, schemaFileOption } from './_shared.js';

export default defineCommand<{ hub?: string; file?: string }>({
  summary: 'Print a schema with every reference to another schema of the hub inlined',
  description: 'Resolves a stored schema, or a document from --file (which need not be stored yet). References to the core definitions stay.',
  examples: ['cms schema resolve https://schemas.example.com/page.json', 'cms schema resolve --file page.json > page.resolved.json'],
  args: [{ name: 'schema', description: 'schema id, or its schema id URL in the hub (or use --file)' }],
  options: [hubOption, schemaFileOption],
  async run(ctx, args, opts) {
    if (Boolean(args.schema) === Boolean(opts.file)) throw new UsageError('Give either a schema or --file <file>');
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const request = opts.file ? { body: JSON.stringify(await readJsonObject(opts.file)) } : { schemaId: (await findSchema(ctx, client, args.schema, opts.hub)).schemaId };
    const resolved = await client.post<{ body: string }>(`/hubs/${hubId}/content-type-schemas/resolve`, request);
    return documentOutput(JSON.parse(resolved.body));
  },
});
