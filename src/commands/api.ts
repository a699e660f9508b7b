import { defineCommand } from '../cli/define.js';
import { applySets, readTextFile } from '../cli/input.js';
import type { Context } from '../cli/context.js';
import { repoOption } from '../cli/options.js';
import { repoId } from '../cli/resolve.js';
import { UsageError } from '../core/errors.js';
import { item } from '../output/result.js';

interface Opts {
  field?: string[];
  rawField?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  sendToken?: boolean;
  include?: boolean;
  repo?: string;
}

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

export default defineCommand<Opts>({
  summary: 'Make a raw request to the service (like gh api)',
  description:
    'Sends one authenticated request and prints the answer as the service sent it (with _links). Paths may be given as /hubs (the /v2/content prefix is added), /v2/content/..., or an absolute URL. {hub} in the path is the current hub id (--hub, CMS_HUB, the profile hub, or the only hub) and {repo} the repository of --repo, as gh api fills {owner}. -F fields are typed (numbers, booleans, null, JSON), -f fields are strings; for GET they become query parameters, otherwise the JSON body. Dotted names build nested objects. ' +
    '--query applies to the answer as sent: a collection holds its items under _embedded.<key> (--query "_embedded.hubs[].name"), while with --paginate the answer is the items as one array (--query "[].name"). A query that finds nothing in a collection says on stderr where its items are.',
  examples: [
    'cms api GET /hubs',
    'cms api GET /hubs --query "_embedded.hubs[].name"',
    'cms api POST /hubs -f name=demo -f label="Demo hub"',
    'cms api PATCH /hubs/5f1a2b3c4d5e6f7a8b9c0d1e -f label="New label"',
    'cms api GET /hubs/{hub}/content-repositories --hub demo --paginate --query "[].name"',
    'cms api GET /content-repositories/{repo}/content-items --hub demo --repo content',
    'cms api POST /hubs --input hub.json',
  ],
  args: [
    { name: 'method', description: `HTTP method: ${METHODS.join(', ')}`, required: true },
    { name: 'path', description: 'path or URL', required: true },
  ],
  options: [
    { flags: '-F, --field <key=value>', description: 'typed field (JSON values parsed), repeatable', repeatable: true },
    { flags: '-f, --raw-field <key=value>', description: 'string field, repeatable', repeatable: true },
    { flags: '--input <file>', description: 'request body from a file (- for stdin), sent as is' },
    { flags: '-H, --header <name:value>', description: 'extra request header, repeatable', repeatable: true },
    { flags: '--paginate', description: 'fetch every page of a collection and print the items as one array' },
    { flags: '-i, --include', description: 'print the status line and response headers first' },
    { flags: '--send-token', description: 'send the access token to an absolute URL on another host than the API (never sent there otherwise)' },
    { ...repoOption, description: 'repository whose id fills {repo} in the path' },
  ],
  async run(ctx, args, opts) {
    const method = String(args.method).toUpperCase();
    if (!METHODS.includes(method)) throw new UsageError(`Unknown method '${args.method}'; use ${METHODS.join(', ')}`);
    const fields: Record<string, unknown> = {};
    applySets(fields, opts.field ?? []);
    applySets(fields, (opts.rawField ?? []).map((f) => rawAssignment(f)));
    const headers: Record<string, string> = {};
    for (const h of opts.header ?? []) {
      const i = h.indexOf(':');
      if (i <= 0) throw new UsageError(`--header needs name:value, got '${h}'`);
      headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
    }
    const client = await ctx.client();
    const path = await fillPlaceholders(ctx, String(args.path), opts.repo);
    const hasFields = Object.keys(fields).length > 0;
    let body: unknown;
    let query: Record<string, string> | undefined;
    if (opts.input) body = await readTextFile(opts.input, '--input');
    else if (hasFields && method === 'GET') query = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    else if (hasFields) body = fields;

    if (opts.paginate) {
      if (method !== 'GET') throw new UsageError('--paginate works with GET only');
      const first = await client.get<{ _embedded?: Record<string, unknown[]> }>(path, { query, headers });
      const key = Object.keys(first?._embedded ?? {})[0];
      if (!key) return item(first, undefined);
      const all: unknown[] = [];
      for await (const row of client.paginate(path, key, { query })) all.push(row);
      return { kind: 'item', data: all, raw: true };
    }
    const res = await client.request(method, path, { query, body, headers, otherOrigin: otherOrigin(ctx, client, path, opts.sendToken) });
    if (opts.include) {
      ctx.io.out(`HTTP ${res.status}\n`);
      res.headers.forEach((v, k) => ctx.io.out(`${k}: ${v}\n`));
      ctx.io.out('\n');
    }
    if (res.data === undefined) return;
    if (ctx.globals.query) await explainEmptyQuery(ctx.io, res.data, ctx.globals.query);
    return { kind: 'item', data: res.data, raw: true };
  },
});

/**
 * An absolute URL on another host is sent without the access token (as gh sends its token only to
 * its own host), unless --send-token asks for it; the note says which.
 */
function otherOrigin(ctx: Context, client: { origin: string }, path: string, sendToken?: boolean): 'anonymous' | 'token' | undefined {
  if (!/^https?:\/\//i.test(path)) return undefined;
  let origin: string;
  try {
    origin = new URL(path).origin;
  } catch {
    throw new UsageError(`Not a URL: ${path}`);
  }
  if (origin === client.origin) return undefined;
  if (sendToken) ctx.io.warn(`sending the access token to ${origin}, which is not the API origin ${client.origin} (--send-token)`);
  else ctx.io.err(`note: ${origin} is not the API origin ${client.origin}: sent without the access token (--send-token sends it)\n`);
  return sendToken ? 'token' : 'anonymous';
}

const PLACEHOLDERS = ['hub', 'repo'];

/** {hub} and {repo} become the ids the current options name; any other {word} is a usage error. */
async function fillPlaceholders(ctx: Context, path: string, repo: string | undefined): Promise<string> {
  const named = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const unknown = named.find((n) => !PLACEHOLDERS.includes(n));
  if (unknown) throw new UsageError(`Cannot fill {${unknown}} in ${path}`, 'Only {hub} (from --hub, CMS_HUB or the profile) and {repo} (from --repo) are filled.');
  if (named.includes('repo') && !repo) throw new UsageError(`${path} names {repo}: give --repo <id|name>`);
  const values: Record<string, string> = {};
  if (named.includes('hub')) values.hub = await ctx.hubId();
  if (named.includes('repo')) values.repo = await repoId(ctx, repo!);
  return path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(values[n]!));
}

/** -f values stay strings: quote them as JSON so applySets does not parse them. */
function rawAssignment(field: string): string {
  const eq = field.indexOf('=');
  if (eq <= 0) throw new UsageError(`-f needs key=value, got '${field}'`);
  return `${field.slice(0, eq)}=${JSON.stringify(field.slice(eq + 1))}`;
}

/**
 * --query runs on the answer as sent; on a HAL collection `[].name` finds nothing because the items
 * sit under _embedded.<key>. Say so, with the query that would work.
 */
async function explainEmptyQuery(io: { warn(message: string): void }, data: unknown, expression: string): Promise<void> {
  const embedded = (data as { _embedded?: Record<string, unknown> } | null)?._embedded;
  const key = embedded && typeof embedded === 'object' ? Object.keys(embedded)[0] : undefined;
  if (!key) return;
  const { default: jmespath } = await import('jmespath');
  let found: unknown;
  try {
    found = jmespath.search(data as never, expression);
  } catch {
    return; // the renderer reports the bad expression
  }
  if (found !== null && found !== undefined && !(Array.isArray(found) && !found.length)) return;
  const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  const rewritten = `_embedded.${name}${expression.startsWith('[') ? '' : '.'}${expression}`;
  io.warn(`--query found nothing: it applies to the answer as sent, a collection whose items are under _embedded.${key}. Try --query '${rewritten}', or --paginate to get the items as one array.`);
}
