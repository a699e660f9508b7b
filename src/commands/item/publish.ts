import { defineCommand } from '../../cli/define.js';
import { item } from '../../output/result.js';
import { publishItem } from '../../ops/publish-item.js';
import { waitForJob } from '../../ops/wait-for-job.js';

export default defineCommand<{ wait?: boolean }>({
  summary: 'Publish an item and everything it links to',
  description: 'Creates a snapshot of the item graph and a publishing job that runs at once, and prints the job. With --wait, waits (up to 5 minutes) for the job to finish; see also cms job wait.',
  examples: ['cms item publish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11', 'cms item publish 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --wait -o json'],
  args: [{ name: 'item', description: 'content item id', required: true }],
  options: [{ flags: '--wait', description: 'wait until the publishing job finishes' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const url = await publishItem(client, args.item);
    if (!opts.wait) return item(await client.get(url));
    return item(await waitForJob(client, url, { timeoutMs: 300_000, intervalMs: 250, io: ctx.io, signal: ctx.signal, what: 'Publishing job' }));
  },
});
