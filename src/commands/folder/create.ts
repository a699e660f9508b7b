import { defineCommand } from '../../cli/define.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { FOLDER_COLUMNS, folderPlace, parentOption } from './_shared.js';

export default defineCommand<{ hub?: string; repo?: string; parent?: string }>({
  summary: 'Create a folder at the top of a repository, or inside another folder',
  examples: ['cms folder create Campaigns --repo content', 'cms folder create "Spring 2026" --parent 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [{ name: 'name', description: 'folder name', required: true }],
  options: [hubOption, repoOption, parentOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return item(await client.post(await folderPlace(ctx, client, opts), { name: args.name }), FOLDER_COLUMNS);
  },
});
