import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { documentOutput } from '../schema/_shared.js';
import { TYPE_COLUMNS, findType } from './_shared.js';

export default defineCommand<{ hub?: string; effective?: boolean }>({
  summary: 'Show a content type (--effective: its effective schema)',
  description:
    "With --effective, prints the type's effective schema as the service answers it: a JSON Schema document with every reference (other schemas of the hub, core, localization) inlined and allOf merged, so `properties` lists every property an item of the type can have.",
  examples: ['cms type get Banner', 'cms type get https://schemas.example.com/banner.json -o json', 'cms type get Banner --effective --query properties'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption, { flags: '--effective', description: 'print the effective schema (references inlined, allOf merged)' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    if (opts.effective) return documentOutput(await client.get(`/content-types/${type.id}/effective-content-type`));
    return item(type, TYPE_COLUMNS);
  },
});
