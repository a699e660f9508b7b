import { defineCommand } from '../../../cli/define.js';
import { col, list } from '../../../output/result.js';

interface Campaign {
  end: string | null;
  slots: unknown[];
}

export default defineCommand({
  summary: 'List the campaigns the commerce platform holds (one per scheduled edition), the latest start first',
  description: 'The sandbox stands in for the commerce platform: scheduling an edition creates a campaign, unscheduling removes it. A campaign without an end is evergreen fallback content.',
  examples: ['cms integration commerce campaigns 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms integration commerce campaigns 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [{ name: 'integration', description: 'commerce integration id', required: true }],
  async run(ctx, args) {
    const client = await ctx.client();
    const res = await client.get<{ _embedded: { campaigns: Campaign[] } }>(`/__sandbox/commerce/${args.integration}/campaigns`);
    return list(res._embedded.campaigns, [
      col('id'),
      col('name'),
      col('edition', 'editionId'),
      col('start'),
      col('end', (c: Campaign) => c.end ?? 'never (evergreen)'),
      col('slots', (c: Campaign) => c.slots.length),
    ]);
  },
});
