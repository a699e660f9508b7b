import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';
import { resolveEventId } from './_shared.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Delete an event and its draft editions',
  description: 'Refused while any of its editions is scheduled or published (archive the event instead).',
  examples: ['cms event delete 5f1a2b3c4d5e6f7a8b9c0d1e --yes'],
  args: [{ name: 'event', description: 'event id or name', required: true }],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = await resolveEventId(ctx, client, args.event, opts.hub);
    await confirm(ctx, `Delete event ${args.event} and its draft editions?`, opts.yes);
    await client.delete(`/events/${id}`);
    return done(`Deleted event ${args.event}`);
  },
});
