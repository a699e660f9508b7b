import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { commentOption, dateFields, endOption, EVENT_COLUMNS, startOption } from './_shared.js';

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
  summary: 'Create an event: a period (a sale, a season) that editions plan publications in',
  examples: ['cms event create --name "Black Friday" --start "tomorrow 00:00" --end +4d', 'cms event create --name "Flash sale" --start +1d --end +3d --brief https://wiki.example.com/flash'],
  options: [
    hubOption,
    { flags: '--name <name>', description: 'name (1 to 255 characters)', required: true, inBody: true },
    { ...startOption, required: true, inBody: true },
    { ...endOption, required: true, inBody: true },
    commentOption,
    { flags: '--brief <url>', description: 'link to the brief describing the event' },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const body = await buildBody(opts, { name: opts.name, comment: opts.comment, brief: opts.brief, ...(await dateFields(client, opts)) }, ['name', 'start', 'end']);
    const hubId = await ctx.hubId(opts.hub, client);
    return item(await client.post(`/hubs/${hubId}/events`, body), EVENT_COLUMNS);
  },
});
