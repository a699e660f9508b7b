import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { done } from '../../output/result.js';
import { findType } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: "Refresh a content type's cached schema from the schema's current version",
  examples: ['cms schema update https://schemas.example.com/banner.json --file banner.json && cms type sync Banner'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    const synced = await client.patch(`/content-types/${type.id}/schema`, {});
    return done(`Synced ${type.settings.label} to the current version of ${type.contentTypeUri}`, synced);
  },
});
