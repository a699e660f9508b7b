import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { ITEM_COLUMNS, sortOption } from './_shared.js';
import { bodyPathOracle } from './_body-paths.js';

export default defineCommand<{ hub?: string; repo?: string; folder?: string; status?: string; sort?: string; limit: number }>({
  summary: 'List the content items of a repository',
  examples: ['cms item list --repo content', 'cms item list --repo content --status ACTIVE --sort label,asc', 'cms item list --repo content --folder 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  options: [
    hubOption,
    { ...repoOption, description: 'content repository (id or name); required' },
    { flags: '--folder <id>', description: 'only items in this folder' },
    { flags: '--status <list>', description: 'only these statuses (comma list of ACTIVE, ARCHIVED; default: all)' },
    sortOption,
    limitOption, allOption,
  ],
  async run(ctx, _args, opts) {
    if (!opts.repo) throw new UsageError('--repo is required', 'Name the repository: cms item list --repo <id|name>.');
    const client = await ctx.client();
    const repo = await repoId(ctx, opts.repo, opts.hub, client);
    const query = { folderId: opts.folder, status: opts.status, sort: opts.sort };
    const out = list(client.paginate(`/content-repositories/${repo}/content-items`, 'content-items', { query, limit: limitOf(opts) }), ITEM_COLUMNS, limitOf(opts));
    // --columns body.x.y is checked against the hub's content type schemas (read only if asked).
    return { ...out, paths: bodyPathOracle(client, async () => (await client.get<{ hubId: string }>(`/content-repositories/${repo}`)).hubId) };
  },
});
