import { defineCommand } from '../../../cli/define.js';
import { item } from '../../../output/result.js';

export default defineCommand({
  summary: 'Show the sandbox clock',
  description: 'The sandbox clock drives scheduled publishing, jobs and webhook retries. It runs with real time unless set, advanced or frozen.',
  examples: ['cms sandbox clock show', 'cms sandbox clock show --query now'],
  async run(ctx) {
    const client = await ctx.client();
    return item(await client.get('/__sandbox/clock'));
  },
});
