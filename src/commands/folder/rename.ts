import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { FOLDER_COLUMNS } from './_shared.js';

export default defineCommand({
  summary: 'Rename a folder',
  examples: ['cms folder rename 5f1a2b3c4d5e6f7a8b9c0d1e "Autumn 2026"'],
  args: [
    { name: 'folder', description: 'folder id', required: true },
    { name: 'name', description: 'new name', required: true },
  ],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.patch(`/folders/${args.folder}`, { name: args.name }), FOLDER_COLUMNS);
  },
});
