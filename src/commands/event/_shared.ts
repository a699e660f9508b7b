// Shared by the event and edition verbs: columns, the event a flag names, date flags.
import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import { resolveDate } from '../../cli/dates.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { col } from '../../output/result.js';
import type { EditionView } from '../../ops/schedule-edition.js';
import { unknownName } from '../../cli/suggest.js';

export const EVENT_COLUMNS = [col('id'), col('name'), col('start'), col('end'), col('status')];
export const EDITION_COLUMNS = [col('id'), col('name'), col('state', 'publishingStatus'), col('start'), col('end'), col('status'), col('event', 'eventId')];

const DATE_HELP = 'now, today 09:00, tomorrow 09:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09:00 is local time; add Z or an offset for UTC)';
export const startOption: OptionSpec = { flags: '--start <date>', description: `start: ${DATE_HELP}` };
export const endOption: OptionSpec = { flags: '--end <date>', description: `end: ${DATE_HELP}` };
export const commentOption: OptionSpec = { flags: '--comment <text>', description: 'comment (at most 250 characters)' };

/** An edition as the service answers it (links aside). */
export type Edition = Omit<EditionView, '_links'>;

export interface CmsEvent {
  id: string;
  name: string;
  start: string;
  end: string;
  status: string;
}

const HEX_ID = /^[0-9a-f]{24}$/i;

/** An event named by id, or by its name among the hub's events. */
export async function resolveEventId(ctx: Context, client: ApiClient, value: string, hubFlag?: string): Promise<string> {
  if (HEX_ID.test(value)) return value;
  const hubId = await ctx.hubId(hubFlag, client);
  const matches: string[] = [];
  const names: string[] = [];
  for await (const event of client.paginate<CmsEvent>(`/hubs/${hubId}/events`, 'events')) {
    if (event.name === value) matches.push(event.id);
    names.push(event.name);
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length) throw new UsageError(`Several events are named '${value}'; give its id`, 'List them with `cms event list`.');
  throw unknownName('event named', value, names, 'in the hub', 'List them with `cms event list`.');
}

/** --start and --end as ISO dates (relative forms resolved on the service clock); absent flags stay undefined. */
export async function dateFields(client: ApiClient, opts: { start?: string; end?: string }): Promise<{ start?: string; end?: string }> {
  return {
    start: opts.start === undefined ? undefined : await resolveDate(client, opts.start, '--start'),
    end: opts.end === undefined ? undefined : await resolveDate(client, opts.end, '--end'),
  };
}

