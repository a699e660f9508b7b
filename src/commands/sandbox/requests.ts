import { defineCommand } from '../../cli/define.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { sleep } from '../../core/retry.js';
import { render } from '../../output/render.js';
import { col, list, type Column } from '../../output/result.js';

interface Opts {
  method?: string;
  path?: string;
  status?: string;
  client?: string;
  faulted?: boolean;
  limit: number;
  follow?: boolean;
  interval: number;
  for?: number;
}

interface Entry {
  id: number;
  status: number | null;
  path: string;
  query: string;
}

interface Page {
  requests: Entry[];
  next: number;
  evicted: number;
  oldestId: number | null;
}

const COLUMNS: Column[] = [
  col('id'),
  col('time'),
  col('client', 'clientId'),
  col('method'),
  col('path', (r: Entry) => r.path + r.query),
  col('status', (r: Entry) => r.status ?? 'dropped'),
  col('ms', 'durationMs'),
  col('fault'),
];

export default defineCommand<Opts>({
  summary: 'Show the requests the served sandbox answered (its request journal, redacted)',
  description:
    'Lists the journal of a sandbox served with `cms sandbox serve` (oldest first): time, client, method, path, status, duration and the fault injected. No secret is kept in it. With --follow, keeps printing new requests until Ctrl-C (or --for).',
  examples: ['cms sandbox requests', 'cms sandbox requests --status 4xx --path "/v2/content/content-items/**"', 'cms sandbox requests --follow -o ndjson'],
  options: [
    { flags: '--method <method>', description: 'only this HTTP method' },
    { flags: '--path <glob>', description: 'only paths matching the glob (* within a segment, ** across)' },
    { flags: '--status <status>', description: 'only this status (404), class (4xx) or dropped' },
    { flags: '--client <id>', description: 'only requests of this client' },
    { flags: '--faulted', description: 'only requests an injected fault struck' },
    { flags: '--limit <n>', description: 'at most n requests (1-1000; without --follow)', integer: true, default: 100 },
    { flags: '-f, --follow', description: 'keep printing new requests as they arrive' },
    { flags: '--interval <duration>', description: 'with --follow: time between polls (500ms, 2s)', duration: true, default: '500ms' },
    { flags: '--for <duration>', description: 'with --follow: stop after this long (exit 0)', duration: true },
  ],
  async run(ctx, _args, opts) {
    if (ctx.connection().embedded) {
      throw new UsageError(
        'The request journal belongs to a served sandbox; the embedded one lives only as long as each command',
        'Start one with `cms sandbox serve` (or `cms sandbox exec -- <command>`) and point CMS_API_URL at it.',
      );
    }
    if (opts.limit < 1 || opts.limit > 1000) throw new UsageError('--limit must be between 1 and 1000');
    if (opts.for !== undefined && !opts.follow) throw new UsageError('--for goes with --follow');
    const client = await ctx.client();
    const query = new URLSearchParams();
    if (opts.method) query.set('method', opts.method.toUpperCase());
    if (opts.path) query.set('path', opts.path);
    if (opts.status) query.set('status', opts.status);
    if (opts.client) query.set('clientId', opts.client);
    if (opts.faulted) query.set('fault', 'true');
    const fetchPage = (after: number | undefined, limit: number) => {
      const q = new URLSearchParams(query);
      if (after !== undefined) q.set('after', String(after));
      q.set('limit', String(limit));
      return client.get<Page>(`/__sandbox/requests?${q}`);
    };
    if (!opts.follow) return list((await fetchPage(undefined, opts.limit)).requests, COLUMNS);
    return follow(ctx, fetchPage, opts);
  },
});

/** Prints pages of new requests as they come (one render per page: a table cannot wait for the end). */
async function follow(ctx: Context, fetchPage: (after: number | undefined, limit: number) => Promise<Page>, opts: Opts): Promise<void> {
  const g = ctx.globals;
  if (g.output === 'json' || g.output === 'yaml') throw new UsageError(`--follow prints requests as they come: use -o ndjson (or a table), not -o ${g.output}`);
  const until = opts.for !== undefined ? Date.now() + opts.for : Infinity;
  let after: number | undefined;
  let first = true;
  let evicted = 0;
  for (;;) {
    const page = await fetchPage(after, 1000);
    // The journal is bounded: a follower slower than the requests misses the ones pushed out.
    if (after !== undefined && page.evicted > evicted && page.oldestId !== null && page.oldestId > after + 1) {
      ctx.io.warn(`up to ${page.oldestId - after - 1} requests left the journal before they were read`);
    }
    evicted = page.evicted;
    if (page.requests.length) {
      await render(list(page.requests, COLUMNS), { format: g.output, query: g.query, columns: g.columns, headers: first && g.headers !== false, localTime: ctx.io.isTTY }, ctx.io);
      first = false;
    }
    after = page.next;
    if (page.requests.length === 1000) continue;
    const left = until - Date.now();
    if (left <= 0) return;
    await sleep(Math.min(opts.interval, left), ctx.signal);
  }
}
