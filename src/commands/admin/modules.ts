import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';

export default defineCommand<{ hub?: string }>({
  summary: 'List the modules of a hub and whether each is enabled',
  examples: ['cms admin modules', 'cms admin modules --hub demo -o json'],
  options: [hubOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const answer = await client.get<{ modules: { name: string; enabled: boolean }[] }>(`/admin/hubs/${hubId}/modules`);
    return list(answer.modules, [col('name'), col('enabled')]);
  },
});
