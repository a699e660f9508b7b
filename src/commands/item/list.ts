import { defineCommand } from '../../cli/define.js';
import { watchList, watchOptions, type WatchFlags } from '../../cli/watch.js';
import { hubOption, limitOf, limitOption, allOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { list } from '../../output/result.js';
import { ITEM_COLUMNS, labelWorkflow, sortOption } from './_shared.js';
import { bodyPathOracle } from './_body-paths.js';

export default defineCommand<{ hub?: string; repo?: string; folder?: string; status?: string; sort?: string; limit: number } & WatchFlags>({
  summary: 'List the content items of a repository',
  examples: ['cms item list --repo content', 'cms item list --repo content --status ACTIVE --sort label,asc', 'cms item list --repo content --folder 5f1a2b3c4d5e6f7a8b9c0d1e -o json', 'cms item list --repo content -w --timeout 2s'],
  options: [
    hubOption,
    { ...repoOption, description: 'content repository (id or name)', required: true, requiredUnless: 'folder' },
    { flags: '--folder <id>', description: 'only items in this folder (implies its repository)' },
    { flags: '--status <list>', description: 'only these statuses (comma list of ACTIVE, ARCHIVED; default: all)', upperCase: true },
    sortOption,
    limitOption, allOption,
    ...watchOptions,
  ],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    // A folder belongs to one repository: --folder alone names both.
    const repo = opts.repo ? await repoId(ctx, opts.repo, opts.hub, client) : (await client.get<{ contentRepositoryId: string }>(`/folders/${opts.folder}`)).contentRepositoryId;
    const query = { folderId: opts.folder, status: opts.status, sort: opts.sort };
    const read = () => labelWorkflow(ctx, client, client.paginate(`/content-repositories/${repo}/content-items`, 'content-items', { query, limit: limitOf(opts) }));
    // -w: new and changed items as they appear (sort by lastModifiedDate,desc to see the latest first).
    if (opts.watch) return watchList(ctx, opts, read, ITEM_COLUMNS, limitOf(opts));
    const out = list(read(), ITEM_COLUMNS, limitOf(opts));
    // --columns body.x.y is checked against the hub's content type schemas (read only if asked).
    return { ...out, paths: bodyPathOracle(client, async () => (await client.get<{ hubId: string }>(`/content-repositories/${repo}`)).hubId) };
  },
});
