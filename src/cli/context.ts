import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { configDir } from '../config/paths.js';
import { resolveConnection, tokenFrom, urlFrom, type Connection } from '../config/resolve.js';
import { ApiClient, type RetryInfo } from '../core/client.js';
import { ANNOUNCE_WAIT_MS, DEFAULT_RETRY } from '../core/retry.js';
import { PersonalToken, TokenProvider } from '../core/auth.js';
import { protectedGuard } from './protect.js';
import { createTransport, REQUEST_DEADLINE_MS } from '../core/transport.js';
import { UsageError } from '../core/errors.js';
import type { Format, RenderOptions } from '../output/render.js';
import { debugTrace } from './debug.js';
import { IO } from './io.js';
import { unknownName } from './suggest.js';

export interface GlobalOptions {
  profile?: string;
  hub?: string;
  output: Format;
  query?: string;
  columns?: string;
  headers?: boolean;
  quiet?: boolean;
  color: boolean;
  debug: boolean;
  input: boolean;
  /** --dry-run for verbs without their own: the client sends reads only. */
  dryRun?: boolean;
  /** --yes: no confirmation asked (a verb's own, and a protected profile's). */
  yes?: boolean;
}

const HEX_ID = /^[0-9a-f]{24}$/i;

const seconds = (ms: number) => Math.round(ms / 1000);

/** CMS_REQUEST_TIMEOUT: seconds one attempt of a request may take in all (default REQUEST_DEADLINE_MS). */
function requestDeadline(env: NodeJS.ProcessEnv): number {
  const raw = env.CMS_REQUEST_TIMEOUT;
  if (raw === undefined || raw === '') return REQUEST_DEADLINE_MS;
  const s = Number(raw);
  if (!Number.isFinite(s) || s <= 0 || s > 86_400) throw new UsageError(`CMS_REQUEST_TIMEOUT must be a number of seconds between 0 and 86400, got '${raw}'`);
  return Math.round(s * 1000);
}

/** What every command gets: options, terminal facts, and (created on first use) the API client. */
export class Context {
  readonly io: IO;
  /** Aborted on Ctrl-C: long operations stop at a safe point. */
  readonly abort = new AbortController();
  private conn: Connection | null = null;
  private clientPromise: Promise<ApiClient> | null = null;
  /** Hub ids by name, per client: two profiles may name different hubs alike. */
  private hubCache = new WeakMap<ApiClient, Map<string, string>>();
  /** Names of the hubs this command listed, by id: what a run's journal records beside the id. */
  private readonly hubNames = new Map<string, string>();
  /** How the command's output is printed (set by main): for verbs that print as they go. */
  renderOptions: RenderOptions = { format: 'table' };

  constructor(
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.io = new IO({ color: globals.color, input: globals.input }, env);
    // Every request in flight follows this signal (Ctrl-C), as do the work queues and retry
    // sleeps: a bulk run at --concurrency 16 has more than Node's default 10 listeners on it.
    setMaxListeners(0, this.abort.signal);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  connection(): Connection {
    this.conn ??= resolveConnection({ profile: this.globals.profile }, this.env);
    return this.conn;
  }

  client(): Promise<ApiClient> {
    this.clientPromise ??= this.connect(this.connection());
    return this.clientPromise;
  }

  /** Forgets a client that failed to open (sandbox reset opens again after moving a damaged database aside). */
  forgetClient(): void {
    this.clientPromise = null;
  }

  /** A client for another profile (cross-profile copy and clone). */
  async clientFor(profile: string): Promise<{ client: ApiClient; connection: Connection }> {
    const connection = resolveConnection({ profile }, this.env);
    return { client: await this.connect(connection), connection };
  }

  /** A client for a connection; closed with the context. */
  async connect(conn: Connection): Promise<ApiClient> {
    const transport = await createTransport(conn);
    const trace = this.globals.debug ? debugTrace((s) => this.io.err(s)) : undefined;
    const deadlineMs = requestDeadline(this.env);
    // Embedded tokens cost microseconds in-process; only remote tokens are worth a cache file.
    const cacheFile = conn.embedded ? null : join(configDir(this.env), 'token-cache.json');
    const onRetry = (info: RetryInfo): void => {
      this.saidRetrying(info);
      this.announceWait(info);
    };
    const tokens = conn.accessToken
      ? new PersonalToken(conn.accessToken, tokenFrom(conn))
      : new TokenProvider(transport, { authUrl: conn.authUrl, clientId: conn.clientId, clientSecret: conn.clientSecret, authUrlFrom: urlFrom(conn, 'authUrl') }, cacheFile, trace, undefined, this.signal, deadlineMs, onRetry);
    const client = new ApiClient(transport, tokens, { apiUrl: conn.apiUrl, onExchange: trace, signal: this.signal, deadlineMs, onRetry, apiUrlFrom: urlFrom(conn, 'apiUrl') });
    client.dryRun = Boolean(this.globals.dryRun);
    if (conn.protected) {
      client.beforeWrite = protectedGuard({
        profile: conn.profile ?? '',
        io: this.io,
        signal: this.signal,
        yes: Boolean(this.globals.yes),
        hubName: async () => {
          const id = await this.hubId(undefined, client, conn);
          return (await client.get<{ name: string }>(`/hubs/${id}`)).name;
        },
      });
    }
    this.opened.push(client);
    return client;
  }

  private readonly opened: ApiClient[] = [];
  private retryingSaid = false;
  /** Whether the first network failure is said on stderr (shell completion stays silent). */
  sayRetrying = true;

  /**
   * The first network failure is said at once ("retrying…"), not after the retries run out
   * (5-7 s of silence). Once per command: a bulk run's later retries show in its progress.
   */
  private readonly saidRetrying = (info: RetryInfo): void => {
    if (info.status !== 'network' || this.retryingSaid || !this.sayRetrying) return;
    this.retryingSaid = true;
    this.io.err(`Cannot reach ${originOf(info.url)}: ${info.problem ?? 'network error'}; retrying…\n`);
  };

  /** A long wait before a retry is said before it starts: a silent minute looks like a hang. */
  private announceWait(info: RetryInfo): void {
    if (info.delayMs < ANNOUNCE_WAIT_MS) return;
    const asked = info.retryAfterMs !== undefined && info.retryAfterMs > info.delayMs ? ` and asked for ${seconds(info.retryAfterMs)} s (at most ${seconds(DEFAULT_RETRY.maxRetryAfterMs)} s are waited)` : '';
    const why = info.status === 'network' ? 'the connection failed' : `the service answered ${info.status}${asked}`;
    this.io.err(`waiting ${seconds(info.delayMs)} s before retrying ${info.url} (attempt ${info.attempt + 1}): ${why}\n`);
  }

  /**
   * The hub to work in: --hub, else CMS_HUB, else the profile's hub, else the only hub there is.
   * Accepts an id or a hub name. `connection` is the one `client` talks to (another profile's).
   */
  async hubId(flag?: string, client?: ApiClient, connection: Connection = this.connection()): Promise<string> {
    // The root --hub belongs to the command's own connection, not to another profile's (a copy's destination).
    const wanted = flag || (connection === this.connection() ? this.globals.hub : undefined) || connection.hub;
    const api = client ?? (await this.client());
    if (wanted && HEX_ID.test(wanted)) return wanted;
    const key = wanted ?? '';
    if (!this.hubCache.has(api)) this.hubCache.set(api, new Map());
    const cache = this.hubCache.get(api)!;
    const cached = cache.get(key);
    if (cached) return cached;
    const hubs: { id: string; name: string }[] = [];
    for await (const hub of api.paginate<{ id: string; name: string }>('/hubs', 'hubs')) hubs.push(hub);
    for (const hub of hubs) if (this.hubNames.size < 1000) this.hubNames.set(hub.id, hub.name);
    let id: string | undefined;
    if (wanted) {
      id = hubs.find((h) => h.name === wanted)?.id;
      if (!id) throw unknownName('hub named', wanted, hubs.map((h) => h.name), 'is visible to this client', 'Create one with `cms hub create`.');
    } else if (hubs.length === 1) id = hubs[0]!.id;
    else {
      throw new UsageError(
        hubs.length ? 'Several hubs exist; choose one with --hub <id|name>' : 'There is no hub yet',
        hubs.length ? `Or set a default: CMS_HUB=<name>, or \`cms login --hub\`. Hubs: ${hubs.map((h) => h.name).join(', ')}` : 'Create one with `cms hub create --name <name> --label <label>`, or run `cms demo`.',
      );
    }
    cache.set(key, id);
    return id;
  }

  /** A hub's name when this command has seen it (no request of its own). */
  hubName(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.hubNames.get(id);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.opened.map((c) => c.close()));
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
