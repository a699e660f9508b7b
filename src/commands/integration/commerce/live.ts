import { defineCommand } from '../../../cli/define.js';
import { resolveDate } from '../../../cli/dates.js';
import { UsageError } from '../../../core/errors.js';
import { col, item } from '../../../output/result.js';

interface Live {
  campaign: { name: string; end: string | null } | null;
  content: { items: { label: string; version: number }[] } | null;
  candidates: unknown[];
}

export default defineCommand<{ slot: string; at?: string }>({
  summary: 'Which content the commerce platform shows on a slot at a time',
  description:
    'Among the campaigns active at that time for the slot, the latest edition start wins; creation order is irrelevant. ' +
    'A campaign ends only when its edition content expires with the edition; otherwise it stays as fallback.',
  examples: ['cms integration commerce live 5f1a2b3c4d5e6f7a8b9c0d1e --slot 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c', 'cms integration commerce live 5f1a2b3c4d5e6f7a8b9c0d1e --slot 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --at +2d -o json'],
  args: [{ name: 'integration', description: 'commerce integration id', required: true }],
  options: [
    { flags: '--slot <id>', description: 'slot content item id', required: true },
    { flags: '--at <time>', description: 'now, tomorrow 09:00, +2h, or a date-time, local unless it has Z or an offset (default: now on the service clock)' },
  ],
  async run(ctx, args, opts) {
    if (!opts.slot) throw new UsageError('Name the slot: --slot <slot item id>');
    const client = await ctx.client();
    const at = opts.at ? await resolveDate(client, opts.at, '--at') : undefined;
    const live = await client.get<Live>(`/__sandbox/commerce/${args.integration}/live`, { query: { slot: opts.slot, at } });
    return item(live, [
      col('slot', 'slotId'),
      col('at'),
      col('campaign', (l: Live) => l.campaign?.name ?? '(none: nothing live)'),
      col('edition', 'campaign.editionId'),
      col('ends', (l: Live) => (l.campaign ? (l.campaign.end ?? 'never (evergreen)') : '')),
      col('content', (l: Live) => (l.content ? l.content.items.map((i) => `${i.label} v${i.version}`).join(', ') : '')),
      col('candidates', (l: Live) => l.candidates.length),
    ]);
  },
});
