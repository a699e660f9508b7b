import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { waitForJob } from '../../ops/wait-for-job.js';

export default defineCommand<{ timeout: number; interval: number }>({
  summary: 'Wait until a publishing job finishes, showing its progress',
  description:
    'Polls the job until it is COMPLETED (exit 0), FAILED or CANCELLED (exit 1). If it is still pending when the timeout passes, exits 8. Progress goes to stderr on a terminal; the final job goes to stdout.',
  examples: ['cms job wait 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms job wait 5f1a2b3c4d5e6f7a8b9c0d1e --timeout 10m -o json'],
  args: [{ name: 'job', description: 'publishing job id', required: true }],
  options: [
    { flags: '--timeout <duration>', description: 'give up after this long (exit 8; 30s, 2m, or seconds)', duration: true, default: '5m' },
    { flags: '--interval <duration>', description: 'time between polls (500ms, 2s, or seconds)', duration: true, default: '1s' },
  ],
  async run(ctx, args, opts) {
    const { timeout: timeoutMs, interval: intervalMs } = opts;
    if (intervalMs <= 0) throw new UsageError('--interval must be more than 0');
    const client = await ctx.client();
    return item(await waitForJob(client, `/publishing-jobs/${args.job}`, { timeoutMs, intervalMs, io: ctx.io, signal: ctx.signal, what: 'Publishing job' }));
  },
});
