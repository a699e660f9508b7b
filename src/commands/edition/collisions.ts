import { defineCommand } from '../../cli/define.js';
import { col, list } from '../../output/result.js';
import { editionArg } from './_edition-slots.js';

type Collision = { collidingEditions: { name: string; editionId: string }[] };

const COLLISION_COLUMNS = [
  col('slot', 'slotId'),
  col('label', 'slotLabel'),
  col('edition slot', 'editionSlotId'),
  col('colliding editions', (c: Collision) => c.collidingEditions.map((e) => `${e.name} (${e.editionId})`).join(', ')),
];

export default defineCommand({
  summary: 'List the slot collisions of an edition: slots that editions overlapping it in time also use',
  description: 'Collisions are a warning when scheduling: scheduling that ignores warnings goes ahead anyway.',
  examples: ['cms edition collisions 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [editionArg],
  async run(ctx, args) {
    const client = await ctx.client();
    const answer = await client.get<{ _embedded: { 'slot-collisions': unknown[] } }>(`/editions/${args.edition}/slot-collisions`);
    return list(answer._embedded['slot-collisions'], COLLISION_COLUMNS);
  },
});
