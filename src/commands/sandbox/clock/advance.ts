import { defineCommand } from '../../../cli/define.js';
import { UsageError } from '../../../core/errors.js';
import { parseDuration } from '../../../server/core/clock.js';
import { changeClock } from './_clock.js';

export default defineCommand({
  summary: 'Move the sandbox clock forward (or back) by a duration',
  description: 'Durations combine units: ms, s, m, h, d, w (90m, 2h, 2d, 1h30m, -15m). Everything that became due runs before the command returns.',
  examples: ['cms sandbox clock advance 2h', 'cms sandbox clock advance 1d12h', 'cms sandbox clock advance -26h'],
  args: [{ name: 'duration', description: 'e.g. 90m, 2h, 2d, -26h (back)', required: true }],
  async run(ctx, args) {
    // A negative duration arrives with U+2212 (see protectNegativeDurations).
    const duration = String(args.duration).replace(/^\u2212/, '-');
    if (parseDuration(duration) === null) throw new UsageError(`'${duration}' is not a duration`, 'Use a number with a unit: 90m, 2h, 2d, 1h30m, -26h.');
    return changeClock(ctx, { advance: duration });
  },
});
