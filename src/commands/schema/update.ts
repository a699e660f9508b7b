import { defineCommand } from '../../cli/define.js';
import { readJsonObject } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { SCHEMA_COLUMNS, findSchema, schemaFileOption, validationLevelOption } from './_shared.js';

export default defineCommand<{ hub?: string; file?: string; validationLevel?: string }>({
  summary: 'Make a new version of a content type schema from a file and/or a validation level',
  description:
    'Fetches the current version and sends the change made from it, so a concurrent change is refused (409) instead of overwritten. Content types keep their cached copy until `cms type sync`.',
  examples: ['cms schema update https://schemas.example.com/banner.json --file banner.json', 'cms schema update 5f1a2b3c4d5e6f7a8b9c0d1e --validation-level SLOT'],
  args: [{ name: 'schema', description: 'schema id, or its schema id URL in the hub', required: true }],
  options: [hubOption, schemaFileOption, validationLevelOption],
  async run(ctx, args, opts) {
    if (!opts.file && !opts.validationLevel) throw new UsageError('Nothing to change', 'Give --file and/or --validation-level.');
    const doc = opts.file ? await readJsonObject(opts.file) : undefined;
    const client = await ctx.client();
    const current = await findSchema(ctx, client, args.schema, opts.hub);
    const body = { body: doc ? JSON.stringify(doc, null, 2) : undefined, validationLevel: opts.validationLevel, version: current.version };
    return item(await client.patch(`/content-type-schemas/${current.id}`, body), SCHEMA_COLUMNS);
  },
});
