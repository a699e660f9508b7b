import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { FOLDER_COLUMNS } from './_shared.js';

export default defineCommand({
  summary: 'Show a folder',
  examples: ['cms folder get 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [{ name: 'folder', description: 'folder id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/folders/${args.folder}`), FOLDER_COLUMNS);
  },
});
