import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { item } from '../../output/result.js';

export default defineCommand<{ hub?: string; add?: string }>({
  summary: "Show a repository's localization group, or add another repository to it",
  description:
    "A localization group is a set of repositories whose item locales together are the group's locales. Localizing an item creates each localized copy in the group's repository for that locale. --add moves a repository from its own group into this one.",
  examples: ['cms repo localization-group content', 'cms repo localization-group content --add content-fr'],
  args: [{ name: 'repo', description: 'repository id or name', required: true }],
  options: [hubOption, { flags: '--add <repo>', description: 'repository (id or name) that leaves its group and joins this one' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = await repoId(ctx, args.repo, opts.hub, client);
    if (opts.add) {
      const joining = await repoId(ctx, opts.add, opts.hub, client);
      await client.post(`/content-repositories/${id}/localization-group`, { newRepositoryId: joining });
    }
    return item(await client.get(`/content-repositories/${id}/localization-group/locales`));
  },
});
