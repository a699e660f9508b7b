import { defineCommand } from '../../cli/define.js';
import { watchItem, watchOptions, type WatchFlags } from '../../cli/watch.js';
import { item } from '../../output/result.js';

/** A publishing job in one of these states changes no more. */
const FINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

export default defineCommand<WatchFlags>({
  summary: 'Show a publishing job',
  description: 'With -w, prints the job again each time it changes, until it is COMPLETED, FAILED or CANCELLED (exit 0), Ctrl-C (exit 130) or --timeout (exit 8).',
  examples: ['cms job get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms job get 5f1a2b3c4d5e6f7a8b9c0d1e --query state', 'cms job get 5f1a2b3c4d5e6f7a8b9c0d1e -w'],
  args: [{ name: 'job', description: 'publishing job id', required: true }],
  options: watchOptions,
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const read = () => client.get<{ state?: string }>(`/publishing-jobs/${args.job}`);
    if (opts.watch) return watchItem(ctx, opts, `Publishing job ${args.job}`, read, undefined, (job) => FINAL.has(job.state ?? ''));
    return item(await read());
  },
});
