import { defineCommand } from '../../cli/define.js';
import { watchList, watchOptions, type WatchFlags } from '../../cli/watch.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';
import { networkErrorWords } from '../../core/retry.js';

export default defineCommand<{ hub?: string; limit: number } & WatchFlags>({
  summary: 'List the delivery attempts of a webhook, newest first',
  description:
    'Result 200: delivered; 202: delivered but the receiver answered 3xx or 4xx (not retried); 500: the receiver answered 5xx (retried with backoff); network error: the receiver could not be reached (no status; the error says why, e.g. connection refused; retried like a 500). -o json keeps the service\'s record (result 500, responseStatus null).',
  examples: ['cms webhook requests 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms webhook requests 5f1a2b3c4d5e6f7a8b9c0d1e -o json --limit 5', 'cms webhook requests 5f1a2b3c4d5e6f7a8b9c0d1e -w --timeout 2s'],
  args: [{ name: 'webhook', description: 'webhook id', required: true }],
  options: [hubOption, limitOption, allOption, ...watchOptions],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const read = () => client.paginateCursor(`/hubs/${hubId}/webhooks/${args.webhook}/requests`, 'requests', { limit: limitOf(opts) });
    const columns = [col('time', 'createdDate'), col('event', 'eventName'), col('attempt'), col('status', 'responseStatus'), col('result', resultOf), col('ms', 'durationMs'), col('error', errorOf), col('retry', 'retryScheduledFor')];
    // -w: each new delivery attempt (and each changed one: a retry scheduled) as it happens.
    if (opts.watch) return watchList(ctx, opts, read, columns, limitOf(opts));
    return list(read(), columns, limitOf(opts));
  },
});

interface Attempt {
  result: number;
  responseStatus: number | null;
  error: string | null;
}

/** The service records an unreachable receiver as result 500 with no status: say what happened. */
const resultOf = (r: Attempt) => (r.responseStatus === null || r.responseStatus === undefined ? 'network error' : r.result);

/** A receiver's network error code in words, as the CLI says its own (core/retry.ts). */
const errorOf = (r: Attempt) => (r.error ? (networkErrorWords(r.error) ?? r.error) : r.error);
