import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { publishItem } from '../../ops/publish-item.js';
import { waitForJob } from '../../ops/wait-for-job.js';

export default defineCommand<{ wait?: boolean; timeout: number }>({
  summary: 'Publish an item and everything it links to',
  description: 'Creates a snapshot of the item graph and a publishing job that runs at once, and prints the job. With --wait, waits for the job to finish (up to --timeout, 5 minutes by default; exit 8 when it is still running); see also cms job wait.',
  examples: ['cms item publish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11', 'cms item publish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --wait -o json'],
  args: [{ name: 'item', description: 'content item id', required: true }],
  options: [
    { flags: '--wait', description: 'wait until the publishing job finishes' },
    { flags: '--timeout <duration>', description: 'with --wait: give up after this long (exit 8; 30s, 2m, or seconds)', duration: true, default: '5m' },
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const url = await publishItem(client, args.item);
    if (!opts.wait) return item(await client.get(url));
    return item(await waitForJob(client, url, { timeoutMs: opts.timeout, intervalMs: 250, io: ctx.io, signal: ctx.signal, what: 'Publishing job' }));
  },
});
