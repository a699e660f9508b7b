import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { findSchema } from '../schema/_shared.js';
import { TYPE_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; label?: string; bodyFile?: string; set?: string[] }>({
  summary: 'Register a content type schema as a content type',
  examples: ['cms type register https://schemas.example.com/banner.json --label Banner', 'cms type register 5f1a2b3c4d5e6f7a8b9c0d1e --label Banner --set settings.icons=\'[{"size":256,"url":"https://img.example.com/b.png"}]\''],
  args: [{ name: 'schema', description: 'schema id, or its schema id URL in the hub', required: true }],
  options: [hubOption, { flags: '--label <label>', description: 'label of the content type' }, bodyFileOption, setOption, setStringOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const schema = await findSchema(ctx, client, args.schema, opts.hub);
    const body = await buildBody(opts, { contentTypeUri: schema.schemaId });
    if (opts.label !== undefined) body.settings = { ...(body.settings as object | undefined), label: opts.label };
    if (!(body.settings as { label?: unknown } | undefined)?.label) throw new UsageError('Give the content type a --label');
    return item(await client.post(`/hubs/${hubId}/content-types`, body), TYPE_COLUMNS);
  },
});
