import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { col, done, item } from '../../output/result.js';
import { scheduleEdition, terminalPrompts } from '../../ops/schedule-edition.js';
import { EDITION_COLUMNS, resolveEventId } from '../event/_shared.js';

interface Opts {
  event?: string;
  start?: string;
  ignoreWarnings?: boolean;
  yes?: boolean;
  hub?: string;
}

export default defineCommand<Opts>({
  summary: 'Schedule a DRAFT edition to publish at its start (guided on a terminal)',
  description:
    'On a terminal, asks for what is missing (the event, the DRAFT edition, the start date), shows every precondition with what to fix, and confirms before it changes anything. ' +
    'A new --start moves the edition (keeping its length) before it is scheduled. With --yes, --no-input, in CI or without a terminal it never asks: the edition must be given. ' +
    'A refusal lists every problem with its level and code (exit 1); warnings alone can be passed with --ignore-warnings.',
  examples: ['cms edition schedule', 'cms edition schedule 5f1a2b3c4d5e6f7a8b9c0d1e --yes', 'cms edition schedule 5f1a2b3c4d5e6f7a8b9c0d1e --start +2h --ignore-warnings --yes'],
  args: [{ name: 'edition', description: 'edition id (asked for on a terminal when missing)' }],
  options: [
    { flags: '--event <id|name>', description: 'the event to pick the edition from' },
    { flags: '--start <date>', description: 'publish at: tomorrow 09:00, +2h, or a date-time, local unless it has Z or an offset (default: the edition start)' },
    { flags: '--ignore-warnings', description: 'schedule despite warnings (slot collisions, overlapping editions)' },
    yesOption,
    hubOption,
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const prompts = ctx.io.canPrompt && !opts.yes ? await terminalPrompts(ctx.io, ctx.signal) : null;
    const { edition, job, scheduled } = await scheduleEdition(
      { client, prompts, noPromptReason: opts.yes ? '--yes was given' : ctx.io.noPromptReason, say: (line) => ctx.io.note(line), hubId: () => ctx.hubId(opts.hub, client), eventId: (value) => resolveEventId(ctx, client, value, opts.hub) },
      { edition: args.edition, event: opts.event, start: opts.start, ignoreWarnings: opts.ignoreWarnings },
    );
    if (!scheduled) return done(`Not scheduled: '${edition.name}' is unchanged.`, edition);
    return item({ ...edition, publishingJob: job ?? null }, [...EDITION_COLUMNS, col('job', 'publishingJobId'), col('job state', 'publishingJob.state')]);
  },
});
