import { defineCommand } from '../../cli/define.js';
import { resolveDate } from '../../cli/dates.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { EDITION_COLUMNS, resolveEventId } from '../event/_shared.js';

/** Without --to, the range runs this long from --from: "upcoming" is the next year. */
const UPCOMING_MS = 366 * 24 * 3600 * 1000;

interface Opts {
  event?: string;
  from?: string;
  to?: string;
  within?: boolean;
  hub?: string;
  sort?: string;
  limit: number;
}

export default defineCommand<Opts>({
  summary: 'List the upcoming editions of the hub, the editions of an event, or those in a date range',
  description: 'With --event, the editions of that event. Otherwise the editions of the hub that overlap the range from --from (default: now, on the service clock) to --to (default: a year later), --within: those entirely inside it. With no flags: the editions not yet over.',
  examples: ['cms edition list', 'cms edition list --event 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms edition list --from +0s --to +30d', 'cms edition list --from 2026-11-01T00:00:00Z --to 2026-12-01T00:00:00Z --within -o json'],
  options: [
    { flags: '--event <id|name>', description: 'the event whose editions to list' },
    { flags: '--from <date>', description: 'range start: now, today 09:00, +2h, or a date-time (local unless it has Z or an offset); default: now' },
    { flags: '--to <date>', description: 'range end: now, tomorrow 09:00, +2h, or a date-time (local unless it has Z or an offset); default: a year after --from' },
    { flags: '--within', description: 'only editions entirely within the range (default: overlapping it)' },
    hubOption,
    { flags: '--sort <field,dir>', description: 'start, end, name, createdDate or publishingStatus with ,asc or ,desc (default: start,asc)' },
    limitOption, allOption,
  ],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const limit = limitOf(opts);
    if (opts.event) {
      const eventId = await resolveEventId(ctx, client, opts.event, opts.hub);
      return list(client.paginate(`/events/${eventId}/editions`, 'editions', { query: { sort: opts.sort }, limit }), EDITION_COLUMNS, limit);
    }
    const rangeStart = await resolveDate(client, opts.from ?? 'now', '--from');
    const rangeEnd = opts.to ? await resolveDate(client, opts.to, '--to') : new Date(Date.parse(rangeStart) + UPCOMING_MS).toISOString();
    if (Date.parse(rangeEnd) <= Date.parse(rangeStart)) throw new UsageError(`--to (${rangeEnd}) must be after --from (${rangeStart})`);
    const query = { rangeStart, rangeEnd, bounded: opts.within ? 'true' : undefined, sort: opts.sort };
    const hubId = await ctx.hubId(opts.hub, client);
    return list(client.paginate(`/hubs/${hubId}/editions`, 'editions', { query, limit }), EDITION_COLUMNS, limit);
  },
});
