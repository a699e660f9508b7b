import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';
import { extensionArg } from './_shared.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Delete an extension',
  examples: ['cms extension delete 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [extensionArg],
  options: [yesOption],
  async run(ctx, args, opts) {
    await confirm(ctx, `Delete extension ${args.extension}?`, opts.yes);
    const client = await ctx.client();
    await client.delete(`/extensions/${encodeURIComponent(args.extension)}`);
    return done(`Deleted extension ${args.extension}`);
  },
});
