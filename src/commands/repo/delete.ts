import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { done } from '../../output/result.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Delete a repository and its content',
  examples: ['cms repo delete old-content --yes'],
  args: [{ name: 'repo', description: 'repository id or name', required: true }],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = await repoId(ctx, args.repo, opts.hub, client);
    await confirm(ctx, `Delete repository ${args.repo} and all its items?`, opts.yes);
    await client.delete(`/content-repositories/${id}`);
    return done(`Deleted repository ${args.repo}`);
  },
});
