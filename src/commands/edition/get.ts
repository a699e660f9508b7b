import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { EDITION_COLUMNS } from '../event/_shared.js';

export default defineCommand({
  summary: 'Show an edition',
  examples: ['cms edition get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms edition get 5f1a2b3c4d5e6f7a8b9c0d1e --query publishingStatus'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    return item(await client.get(`/editions/${args.edition}`), EDITION_COLUMNS);
  },
});
