import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { sortOption, statusOption } from '../schema/_shared.js';
import { TYPE_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; status?: string; sort?: string; limit: number }>({
  summary: 'List the content types of a hub',
  examples: ['cms type list', 'cms type list --status ACTIVE --sort settings.label,asc'],
  options: [hubOption, statusOption, sortOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const items = client.paginate(`/hubs/${hubId}/content-types`, 'content-types', { query: { status: opts.status, sort: opts.sort }, limit: limitOf(opts) });
    return list(items, TYPE_COLUMNS, limitOf(opts));
  },
});
