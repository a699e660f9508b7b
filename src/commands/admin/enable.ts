import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';

const MODULES = ['search-index', 'content-delivery-2'];

export default defineCommand<{ hub?: string }>({
  summary: 'Enable a hub module: the search index module or Content Delivery 2 (delivery keys)',
  examples: ['cms admin enable content-delivery-2', 'cms admin enable search-index --hub demo'],
  args: [{ name: 'module', description: 'module to enable', required: true, choices: MODULES }],
  options: [hubOption],
  async run(ctx, args, opts) {
    if (!MODULES.includes(args.module)) throw new UsageError(`No module '${args.module}'; use ${MODULES.join(' or ')}`);
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    await client.post(`/admin/hubs/${hubId}/modules/${args.module}`);
    return done(`Enabled ${args.module} on hub ${hubId}`);
  },
});
