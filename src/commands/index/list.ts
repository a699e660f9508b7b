import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { INDEX_COLUMNS, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; primary?: boolean; replicasOf?: string; status?: string; withSettings?: boolean; limit: number }>({
  summary: 'List the search indexes of a hub',
  examples: ['cms index list', 'cms index list --primary --status ACTIVE', 'cms index list --replicas-of products --with-settings -o json'],
  options: [
    hubOption,
    { flags: '--primary', description: 'primary indexes only (no replicas)' },
    { flags: '--replicas-of <index>', description: 'the replicas of one index (id, name or suffix)' },
    { flags: '--status <list>', description: 'ACTIVE, ARCHIVED or both (comma list)', upperCase: true },
    { flags: '--with-settings', description: 'include each index settings' },
    limitOption, allOption,
  ],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const parentId = opts.replicasOf ? (await resolveIndex(ctx, opts.replicasOf, opts.hub)).id : opts.primary ? '' : undefined;
    const query = { parentId, status: opts.status, projection: opts.withSettings ? 'withSettings' : undefined };
    return list(client.paginate(`/hubs/${hubId}/search-indexes`, 'indexes', { query, limit: limitOf(opts) }), INDEX_COLUMNS, limitOf(opts));
  },
});
