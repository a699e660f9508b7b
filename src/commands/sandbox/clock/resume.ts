import { defineCommand } from '../../../cli/define.js';
import { changeClock } from './_clock.js';

export default defineCommand({
  summary: 'Let a frozen sandbox clock run again from where it stopped',
  examples: ['cms sandbox clock resume'],
  async run(ctx) {
    return changeClock(ctx, { resume: true });
  },
});
