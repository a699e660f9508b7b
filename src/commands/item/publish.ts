import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { publishItem } from '../../ops/publish-item.js';
import { waitForJob } from '../../ops/wait-for-job.js';
import { isPublished, waitForDates, type PublishingDates } from '../../ops/wait-published.js';

export default defineCommand<{ wait?: boolean; timeout: number; interval: number }>({
  summary: 'Publish an item and everything it links to',
  description:
    'Creates a snapshot of the item graph and a publishing job that runs at once, and prints the job. ' +
    "With --wait, waits for the job to finish and for the item to show the version it published as its lastPublishedVersion, published (LATEST or EARLY): what a site then reads (`cms item get <id> --delivered`); dates are not compared, so a sandbox clock set back changes nothing; " +
    'still pending at --timeout is exit 8. See also cms job wait.',
  examples: ['cms item publish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11', 'cms item publish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --wait --timeout 2m -o json'],
  args: [{ name: 'item', description: 'content item id', required: true }],
  options: [
    { flags: '--wait', description: 'wait until the publishing job finishes and the item shows it published' },
    { flags: '--timeout <duration>', description: 'with --wait: give up after this long (exit 8; 30s, 2m, or seconds)', duration: true, default: '5m' },
    { flags: '--interval <duration>', description: 'with --wait: time between polls', duration: true, default: '250ms' },
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const before = opts.wait ? await client.get<PublishingDates>(`/content-items/${encodeURIComponent(args.item)}`) : undefined;
    const url = await publishItem(client, args.item);
    if (!before) return item(await client.get(url));
    const deadline = Date.now() + opts.timeout;
    const job = await waitForJob(client, url, { timeoutMs: opts.timeout, intervalMs: opts.interval, io: ctx.io, signal: ctx.signal, what: 'Publishing job' });
    await waitForDates(client, args.item, (i) => isPublished(i, before), { deadline, intervalMs: opts.interval, io: ctx.io, signal: ctx.signal, what: 'published' });
    return item(job);
  },
});
