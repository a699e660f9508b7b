import { defineCommand } from '../../../cli/define.js';
import { hubOption } from '../../../cli/options.js';
import { repoId } from '../../../cli/resolve.js';
import { item } from '../../../output/result.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Remove a feature flag from a repository',
  examples: ['cms repo features remove slots-repo slots'],
  args: [
    { name: 'repo', description: 'repository id or name', required: true },
    { name: 'feature', description: 'feature name, e.g. slots', required: true },
  ],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = await repoId(ctx, args.repo, opts.hub, client);
    await client.delete(`/content-repositories/${id}/features`, { query: { feature: args.feature } });
    return item(await client.get(`/content-repositories/${id}`));
  },
});
