import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';
import { EXTENSION_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; lite?: boolean; limit: number }>({
  summary: 'List the extensions of a hub',
  examples: ['cms extension list', 'cms extension list --lite -o json'],
  options: [hubOption, { flags: '--lite', description: 'only id, name, label, category and url of each' }, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const query = opts.lite ? { projection: 'lite' } : undefined;
    const columns = opts.lite ? [col('id'), col('name'), col('label'), col('category'), col('url')] : EXTENSION_COLUMNS;
    return list(client.paginate(`/hubs/${hubId}/extensions`, 'extensions', { limit: limitOf(opts), query }), columns, limitOf(opts));
  },
});
