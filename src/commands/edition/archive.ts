import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { EDITION_COLUMNS } from '../event/_shared.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Archive an edition (irreversible): it can no longer change or be scheduled',
  description: 'Works from any state: a scheduled edition is unscheduled first (its publishing job is cancelled, so nothing publishes at its start).',
  examples: ['cms edition archive 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  options: [yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    await confirm(ctx, `Archive edition ${args.edition}? This cannot be undone, and cancels its publication if it is scheduled.`, opts.yes);
    return item(await client.post(`/editions/${args.edition}/archive`, {}), EDITION_COLUMNS);
  },
});
