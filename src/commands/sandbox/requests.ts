import { defineCommand } from '../../cli/define.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, UsageError } from '../../core/errors.js';
import type { ApiClient } from '../../core/client.js';
import { sleep } from '../../core/retry.js';
import { render } from '../../output/render.js';
import { answers } from './_local.js';
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
  port: string;
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
    'Lists the journal of a served sandbox (oldest first): time, client, method, path, status, duration and the fault injected. No secret is kept in it. For a profile that points at a served sandbox it is that server\'s journal; for the embedded sandbox, the journal of the local `cms sandbox serve` (--port): each embedded command is a sandbox of its own that lives only as long as the command. With --follow, keeps printing new requests until Ctrl-C (or --for).',
  examples: ['cms sandbox requests', 'cms sandbox requests --status 4xx --path "/v2/content/content-items/**"', 'cms sandbox requests --follow --for 1s -o ndjson'],
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
    { flags: '--port <port>', description: 'port of the local `cms sandbox serve`, for the embedded sandbox', default: '8787' },
  ],
  async run(ctx, _args, opts) {
    if (opts.limit < 1 || opts.limit > 1000) throw new UsageError('--limit must be between 1 and 1000');
    if (opts.for !== undefined && !opts.follow) throw new UsageError('--for goes with --follow');
    const client = await journalClient(ctx, opts.port);
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

/** The served sandbox's client: the profile's, or for the embedded sandbox the local serve's on --port (same data, same admin client). */
async function journalClient(ctx: Context, portText: string): Promise<ApiClient> {
  const conn = ctx.connection();
  if (!conn.embedded) return ctx.client();
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port must be 1..65535, got '${portText}'`);
  const origin = `http://127.0.0.1:${port}`;
  if (!(await answers(origin))) {
    throw new CliError(
      `No sandbox answers at ${origin}`,
      ExitCode.FAILURE,
      `The request journal is kept by a served sandbox: start one with \`cms sandbox serve${port === 8787 ? '' : ` --port ${port}`}\` (or use \`cms sandbox exec -- <command>\`), or point CMS_API_URL at one.`,
    );
  }
  const client = await ctx.connect({ ...conn, embedded: false, apiUrl: `${origin}/v2/content`, authUrl: origin });
  return client;
}

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
