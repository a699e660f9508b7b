import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Delete an empty folder (one holding sub-folders or items is refused)',
  examples: ['cms folder delete 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [{ name: 'folder', description: 'folder id', required: true }],
  options: [yesOption],
  async run(ctx, args, opts) {
    await confirm(ctx, `Delete folder ${args.folder}?`, opts.yes);
    const client = await ctx.client();
    await client.delete(`/folders/${args.folder}`);
    return done(`Deleted folder ${args.folder}`);
  },
});
