import { defineCommand } from '../../../cli/define.js';
import { UsageError } from '../../../core/errors.js';
import { impossibleDay } from '../../../cli/dates.js';
import { changeClock } from './_clock.js';

export default defineCommand({
  summary: 'Set the sandbox clock to an instant (it keeps running from there unless frozen)',
  description: 'Moving the clock forward runs everything that became due (scheduled editions publish, jobs run, webhook retries fire) before the command returns.',
  examples: ['cms sandbox clock set 2026-12-24T09:00:00Z', 'cms sandbox clock set "2027-01-01T00:00:00.000+01:00"'],
  args: [{ name: 'time', description: 'ISO 8601 date-time', required: true }],
  async run(ctx, args) {
    impossibleDay(args.time, 'The time');
    if (Number.isNaN(Date.parse(args.time))) throw new UsageError(`'${args.time}' is not an ISO 8601 date-time`, 'For example 2026-12-24T09:00:00Z');
    return changeClock(ctx, { set: args.time });
  },
});
