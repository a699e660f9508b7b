import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { EDITION_COLUMNS } from '../event/_shared.js';

export default defineCommand({
  summary: 'Unschedule an edition: back to DRAFT, its publishing job cancelled',
  examples: ['cms edition unschedule 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    await client.delete(`/editions/${args.edition}/schedule`);
    return item(await client.get(`/editions/${args.edition}`), EDITION_COLUMNS);
  },
});
