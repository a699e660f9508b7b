import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { EVENT_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; sort?: string; limit: number }>({
  summary: 'List the events of a hub',
  examples: ['cms event list', 'cms event list --sort createdDate,desc -o json'],
  options: [hubOption, { flags: '--sort <field,dir>', description: 'start, end, createdDate or name with ,asc or ,desc (default: start,asc)' }, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return list(client.paginate(`/hubs/${hubId}/events`, 'events', { query: { sort: opts.sort }, limit: limitOf(opts) }), EVENT_COLUMNS, limitOf(opts));
  },
});
