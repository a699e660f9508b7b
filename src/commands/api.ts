import { defineCommand } from '../cli/define.js';
import { applySets, readTextFile } from '../cli/input.js';
import { UsageError } from '../core/errors.js';
import { item } from '../output/result.js';

interface Opts {
  field?: string[];
  rawField?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  include?: boolean;
}

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

export default defineCommand<Opts>({
  summary: 'Make a raw request to the service (like gh api)',
  description:
    'Sends one authenticated request and prints the answer as the service sent it (with _links). Paths may be given as /hubs (the /v2/content prefix is added), /v2/content/..., or an absolute URL. -F fields are typed (numbers, booleans, null, JSON), -f fields are strings; for GET they become query parameters, otherwise the JSON body. Dotted names build nested objects.',
  examples: [
    'cms api GET /hubs',
    'cms api POST /hubs -f name=demo -f label="Demo hub"',
    'cms api PATCH /hubs/5f1a2b3c4d5e6f7a8b9c0d1e -f label="New label"',
    'cms api GET /hubs/5f1a2b3c4d5e6f7a8b9c0d1e/content-repositories --paginate --query "[].name"',
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
    const hasFields = Object.keys(fields).length > 0;
    let body: unknown;
    let query: Record<string, string> | undefined;
    if (opts.input) body = await readTextFile(opts.input, '--input');
    else if (hasFields && method === 'GET') query = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    else if (hasFields) body = fields;

    if (opts.paginate) {
      if (method !== 'GET') throw new UsageError('--paginate works with GET only');
      const first = await client.get<{ _embedded?: Record<string, unknown[]> }>(args.path, { query, headers });
      const key = Object.keys(first?._embedded ?? {})[0];
      if (!key) return item(first, undefined);
      const all: unknown[] = [];
      for await (const row of client.paginate(args.path, key, { query })) all.push(row);
      return { kind: 'item', data: all, raw: true };
    }
    const res = await client.request(method, args.path, { query, body, headers });
    if (opts.include) {
      ctx.io.out(`HTTP ${res.status}\n`);
      res.headers.forEach((v, k) => ctx.io.out(`${k}: ${v}\n`));
      ctx.io.out('\n');
    }
    if (res.data === undefined) return;
    return { kind: 'item', data: res.data, raw: true };
  },
});

/** -f values stay strings: quote them as JSON so applySets does not parse them. */
function rawAssignment(field: string): string {
  const eq = field.indexOf('=');
  if (eq <= 0) throw new UsageError(`-f needs key=value, got '${field}'`);
  return `${field.slice(0, eq)}=${JSON.stringify(field.slice(eq + 1))}`;
}
