import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption, repoOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { FOLDER_COLUMNS, folderPlace, parentOption } from './_shared.js';

export default defineCommand<{ hub?: string; repo?: string; parent?: string; limit: number }>({
  summary: 'List the top-level folders of a repository, or the sub-folders of a folder',
  examples: ['cms folder list --repo content', 'cms folder list --parent 5f1a2b3c4d5e6f7a8b9c0d1e'],
  options: [hubOption, repoOption, parentOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const path = await folderPlace(ctx, client, opts);
    return list(client.paginate(path, 'folders', { query: { sort: 'name,asc' }, limit: limitOf(opts) }), FOLDER_COLUMNS, limitOf(opts));
  },
});
