import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { EVENT_COLUMNS, resolveEventId } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show an event',
  examples: ['cms event get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms event get "Black Friday" -o json'],
  args: [{ name: 'event', description: 'event id or name', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return item(await client.get(`/events/${await resolveEventId(ctx, client, args.event, opts.hub)}`), EVENT_COLUMNS);
  },
});
