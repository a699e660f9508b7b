import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Delete a DRAFT edition with its slots and content',
  description: 'A scheduled or published edition cannot be deleted: unschedule it, or archive it.',
  examples: ['cms edition delete 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  options: [yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    await confirm(ctx, `Delete edition ${args.edition} with its slots and content?`, opts.yes);
    await client.delete(`/editions/${args.edition}`);
    return done(`Deleted edition ${args.edition}`);
  },
});
