import { defineCommand } from '../../../cli/define.js';
import { changeClock } from './_clock.js';

export default defineCommand({
  summary: 'Stop the sandbox clock where it is',
  examples: ['cms sandbox clock freeze'],
  async run(ctx) {
    return changeClock(ctx, { freeze: true });
  },
});
