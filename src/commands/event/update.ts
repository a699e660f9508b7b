import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { commentOption, dateFields, endOption, EVENT_COLUMNS, resolveEventId, startOption } from './_shared.js';

interface Opts {
  hub?: string;
  name?: string;
  start?: string;
  end?: string;
  comment?: string;
  brief?: string;
  bodyFile?: string;
  set?: string[];
}

export default defineCommand<Opts>({
  summary: 'Change the name, dates, comment or brief of an event',
  description: 'Only the fields given change. The dates of an event with scheduled or published editions cannot move, and every edition must still fit.',
  examples: ['cms event update 5f1a2b3c4d5e6f7a8b9c0d1e --name "Black Friday week"', 'cms event update "Black Friday" --end +10d'],
  args: [{ name: 'event', description: 'event id or name', required: true }],
  options: [hubOption, { flags: '--name <name>', description: 'new name' }, startOption, endOption, commentOption, { flags: '--brief <url>', description: 'new brief link' }, bodyFileOption, setOption, setStringOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const body = await buildBody(opts, { name: opts.name, comment: opts.comment, brief: opts.brief, ...(await dateFields(client, opts)) });
    if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give --name, --start, --end, --comment, --brief, --set or --body-file.');
    return item(await client.patch(`/events/${await resolveEventId(ctx, client, args.event, opts.hub)}`, body), EVENT_COLUMNS);
  },
});
