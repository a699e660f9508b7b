import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { item } from '../../output/result.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show a repository',
  examples: ['cms repo get content', 'cms repo get 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [{ name: 'repo', description: 'repository id, or name in the hub', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return item(await client.get(`/content-repositories/${await repoId(ctx, args.repo, opts.hub, client)}`));
  },
});
