import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { SNAPSHOT_COLUMNS } from './_columns.js';

export default defineCommand<{ hub?: string; type?: string; limit: number }>({
  summary: 'List the snapshots of a hub, newest first',
  examples: ['cms snapshot list', 'cms snapshot list --type user,system -o json'],
  options: [hubOption, { flags: '--type <list>', description: 'only these types (comma list of user, system, generated)' }, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const types = commaList(opts.type).join(',') || undefined;
    return list(client.paginate(`/hubs/${hubId}/snapshots`, 'snapshots', { query: { types }, limit: limitOf(opts) }), SNAPSHOT_COLUMNS, limitOf(opts));
  },
});
