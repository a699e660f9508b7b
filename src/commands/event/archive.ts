import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { EVENT_COLUMNS, resolveEventId } from './_shared.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Archive an event (irreversible): it becomes read-only and its editions cannot be scheduled',
  description: 'Refused while any of its editions is scheduled: unschedule them first.',
  examples: ['cms event archive 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [{ name: 'event', description: 'event id or name', required: true }],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = await resolveEventId(ctx, client, args.event, opts.hub);
    await confirm(ctx, `Archive event ${args.event}? This cannot be undone.`, opts.yes);
    return item(await client.post(`/events/${id}/archive`, {}), EVENT_COLUMNS);
  },
});
