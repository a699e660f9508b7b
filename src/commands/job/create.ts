import { defineCommand } from '../../cli/define.js';
import { resolveDate } from '../../cli/dates.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';

export default defineCommand<{ snapshot?: string; at?: string }>({
  summary: 'Schedule the publication of a snapshot',
  description: 'Creates a publishing job that publishes the snapshot (its root item and everything it links to, at their frozen versions) at the given time on the service clock.',
  examples: ['cms job create --snapshot 5f1a2b3c4d5e6f7a8b9c0d1e --at "tomorrow 09:00"', 'cms job create --snapshot 5f1a2b3c4d5e6f7a8b9c0d1e --at +2h'],
  options: [
    { flags: '--snapshot <id>', description: 'snapshot to publish' },
    { flags: '--at <date>', description: 'when: now, tomorrow 09:00, +2h, or a date-time (local unless it has Z or an offset); default now' },
  ],
  async run(ctx, _args, opts) {
    if (!opts.snapshot) throw new UsageError('Give --snapshot <id>');
    const client = await ctx.client();
    const scheduledDate = await resolveDate(client, opts.at ?? '+0s', '--at');
    return item(await client.post(`/snapshots/${opts.snapshot}/publishing-jobs`, { scheduledDate }));
  },
});
