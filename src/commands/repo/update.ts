import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';

export default defineCommand<{ hub?: string; name?: string; label?: string; bodyFile?: string; set?: string[] }>({
  summary: 'Rename or relabel a repository',
  examples: ['cms repo update content --label "Site content"'],
  args: [{ name: 'repo', description: 'repository id or name', required: true }],
  options: [hubOption, { flags: '--name <name>', description: 'new name' }, { flags: '--label <label>', description: 'new label' }, bodyFileOption, setOption, setStringOption],
  async run(ctx, args, opts) {
    const body = await buildBody(opts, { name: opts.name, label: opts.label });
    if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give --name, --label, --set or --body-file.');
    const client = await ctx.client();
    return item(await client.patch(`/content-repositories/${await repoId(ctx, args.repo, opts.hub, client)}`, body));
  },
});
