import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { commentOption, dateFields, EDITION_COLUMNS, endOption, resolveEventId, startOption } from '../event/_shared.js';

interface Opts {
  event?: string;
  name?: string;
  start?: string;
  end?: string;
  comment?: string;
  activeEndDate?: boolean;
  copyFrom?: string;
  hub?: string;
  bodyFile?: string;
  set?: string[];
}

export default defineCommand<Opts>({
  summary: 'Create a DRAFT edition in an event, or copy one',
  description:
    'The edition lies within its event: start and end inside the event, start before end. With --copy-from, the copy takes the slots (with their content) and the content of the source edition, and its name and dates unless given.',
  examples: [
    'cms edition create --event 5f1a2b3c4d5e6f7a8b9c0d1e --name "Doors open" --start "tomorrow 08:00" --end +2d',
    'cms edition create --event "Black Friday" --name "Early birds" --start +1d --end +2d',
    'cms edition create --event 5f1a2b3c4d5e6f7a8b9c0d1e --copy-from 5f1a2b3c4d5e6f7a8b9c0d2f --start +7d --end +8d',
  ],
  options: [
    { flags: '--event <id|name>', description: 'the event the edition belongs to', complete: 'events', required: true },
    { flags: '--name <name>', description: 'name (1 to 120 characters)', required: true, inBody: true, requiredUnless: 'copyFrom' },
    { ...startOption, required: true, inBody: true, requiredUnless: 'copyFrom' },
    { ...endOption, required: true, inBody: true, requiredUnless: 'copyFrom' },
    commentOption,
    { flags: '--active-end-date', description: 'content expires when the edition ends (default: it stays as fallback)' },
    { flags: '--copy-from <edition>', description: 'copy this edition (its slots, content, name and dates unless given)' },
    hubOption,
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const body = await buildBody(opts, { name: opts.name, comment: opts.comment, activeEndDate: opts.activeEndDate, ...(await dateFields(client, opts)) }, opts.copyFrom ? [] : ['name', 'start', 'end']);
    const eventId = await resolveEventId(ctx, client, opts.event!, opts.hub);
    return item(await client.post(`/events/${eventId}/editions`, body, { query: { sourceEditionId: opts.copyFrom } }), EDITION_COLUMNS);
  },
});
