import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { SCHEMA_COLUMNS, sortOption, statusOption } from './_shared.js';

export default defineCommand<{ hub?: string; status?: string; sort?: string; limit: number }>({
  summary: 'List the content type schemas of a hub',
  examples: ['cms schema list', 'cms schema list --status ARCHIVED', 'cms schema list --sort schemaId,asc -o json --query "[].schemaId"'],
  options: [hubOption, statusOption, sortOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const items = client.paginate(`/hubs/${hubId}/content-type-schemas`, 'content-type-schemas', { query: { status: opts.status, sort: opts.sort }, limit: limitOf(opts) });
    return list(items, SCHEMA_COLUMNS, limitOf(opts));
  },
});
