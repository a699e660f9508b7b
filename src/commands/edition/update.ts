import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, setOption, setStringOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { commentOption, dateFields, EDITION_COLUMNS, endOption, startOption } from '../event/_shared.js';

interface Opts {
  name?: string;
  start?: string;
  end?: string;
  comment?: string;
  activeEndDate?: boolean;
  bodyFile?: string;
  set?: string[];
}

export default defineCommand<Opts>({
  summary: 'Change a DRAFT edition: name, dates, comment, content expiry',
  description: 'Only the fields given change. Only a DRAFT edition that is not archived can change; unschedule a scheduled one first.',
  examples: ['cms edition update 5f1a2b3c4d5e6f7a8b9c0d1e --name "Doors open (final)"', 'cms edition update 5f1a2b3c4d5e6f7a8b9c0d1e --start +2h --end +1d --no-active-end-date'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  options: [
    { flags: '--name <name>', description: 'new name (1 to 120 characters)' },
    startOption,
    endOption,
    commentOption,
    { flags: '--active-end-date', description: 'content expires when the edition ends' },
    { flags: '--no-active-end-date', description: 'content stays as fallback after the edition ends' },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const body = await buildBody(opts, { name: opts.name, comment: opts.comment, activeEndDate: opts.activeEndDate, ...(await dateFields(client, opts)) });
    if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give --name, --start, --end, --comment, --[no-]active-end-date, --set or --body-file.');
    return item(await client.patch(`/editions/${args.edition}`, body), EDITION_COLUMNS);
  },
});
