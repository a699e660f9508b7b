import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS } from './_shared.js';
import { isUnpublished, waitForDates, type PublishingDates } from '../../ops/wait-published.js';

export default defineCommand<{ wait?: boolean; timeout: number; interval: number }>({
  summary: 'Take an item out of publication',
  description:
    'Asks the service to unpublish the item and prints it. With --wait, polls until the item is UNPUBLISHED (its lastUnpublishedVersion its lastPublishedVersion), not comparing dates, which a sandbox clock set back would leave behind the publish; from a service that reports no status, until lastUnpublishedDate >= lastPublishedDate (how clients of the hosted service know an unpublish is done); ' +
    'still pending at --timeout is exit 8. Delivery (`cms item get <id> --delivered`) then answers not found.',
  examples: ['cms item unpublish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11', 'cms item unpublish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --wait --timeout 1m'],
  args: [{ name: 'item', description: 'content item id', required: true }],
  options: [
    { flags: '--wait', description: 'wait until the item shows it unpublished' },
    { flags: '--timeout <duration>', description: 'with --wait: give up after this long (exit 8; 30s, 2m, or seconds)', duration: true, default: '5m' },
    { flags: '--interval <duration>', description: 'with --wait: time between polls', duration: true, default: '250ms' },
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const path = `/content-items/${encodeURIComponent(args.item)}`;
    const before = opts.wait ? await client.get<PublishingDates>(path) : undefined;
    await client.post(`${path}/unpublish`, {});
    if (!before) return item(await client.get(path), ITEM_COLUMNS);
    const deadline = Date.now() + opts.timeout;
    return item(await waitForDates(client, args.item, (i) => isUnpublished(i, before), { deadline, intervalMs: opts.interval, io: ctx.io, signal: ctx.signal, what: 'unpublished' }), ITEM_COLUMNS);
  },
});
