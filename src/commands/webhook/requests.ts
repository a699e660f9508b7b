import { defineCommand } from '../../cli/define.js';
import { watchList, watchOptions, type WatchFlags } from '../../cli/watch.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';

export default defineCommand<{ hub?: string; limit: number } & WatchFlags>({
  summary: 'List the delivery attempts of a webhook, newest first',
  description: 'Result 200: delivered; 202: delivered but the receiver answered 4xx (not retried); 500: the receiver answered 5xx or could not be reached (retried with backoff).',
  examples: ['cms webhook requests 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms webhook requests 5f1a2b3c4d5e6f7a8b9c0d1e -o json --limit 5', 'cms webhook requests 5f1a2b3c4d5e6f7a8b9c0d1e -w --timeout 2s'],
  args: [{ name: 'webhook', description: 'webhook id', required: true }],
  options: [hubOption, limitOption, allOption, ...watchOptions],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const read = () => client.paginateCursor(`/hubs/${hubId}/webhooks/${args.webhook}/requests`, 'requests', { limit: limitOf(opts) });
    const columns = [col('time', 'createdDate'), col('event', 'eventName'), col('attempt'), col('status', 'responseStatus'), col('result'), col('ms', 'durationMs'), col('error'), col('retry', 'retryScheduledFor')];
    // -w: each new delivery attempt (and each changed one: a retry scheduled) as it happens.
    if (opts.watch) return watchList(ctx, opts, read, columns, limitOf(opts));
    return list(read(), columns, limitOf(opts));
  },
});
