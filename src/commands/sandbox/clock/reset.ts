import { defineCommand } from '../../../cli/define.js';
import { changeClock } from './_clock.js';

export default defineCommand({
  summary: 'Put the sandbox clock back on real time (no offset, not frozen)',
  description: 'Undoes every set, advance and freeze. Work scheduled before the new now runs before the command returns.',
  examples: ['cms sandbox clock reset'],
  async run(ctx) {
    return changeClock(ctx, { reset: true });
  },
});
