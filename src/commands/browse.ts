import { defineCommand } from '../cli/define.js';
import { NotFound, UsageError } from '../core/errors.js';
import { item, text } from '../output/result.js';
import { consoleOrigin, openBrowser } from './sandbox/_console.js';

/** Where each kind of resource is in the console (its hash routes), and how to tell one by id. */
const KINDS: { path: (id: string) => string; route: string[] }[] = [
  { path: (id) => `/content-items/${id}`, route: ['content', 'item'] },
  { path: (id) => `/editions/${id}`, route: ['planning', 'edition'] },
  { path: (id) => `/content-repositories/${id}`, route: ['content', 'repo'] },
  { path: (id) => `/hubs/${id}`, route: ['content', 'hub'] },
  { path: (id) => `/content-type-schemas/${id}`, route: ['model', 'schema'] },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default defineCommand<{ browser: boolean; port?: string }>({
  summary: 'Open the sandbox console at a resource (an item, edition, repository, hub or schema)',
  description:
    'Like `gh browse`: finds what the id names and opens the console there, in the system browser (or $BROWSER). Without a terminal, or with --no-browser, prints the URL instead. Without an id, the console itself. The console is the one of the served sandbox (see `cms sandbox console`).',
  examples: ['cms browse 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --no-browser', 'cms browse --no-browser -o json'],
  args: [{ name: 'id', description: 'id of a content item, edition, repository, hub or schema' }],
  options: [
    { flags: '--no-browser', description: 'print the URL, do not open it' },
    { flags: '--port <port>', description: 'port of the local `cms sandbox serve`, for the embedded sandbox (default: the running one, else 8787)' },
  ],
  async run(ctx, args, opts) {
    const port = opts.port === undefined ? undefined : Number(opts.port);
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new UsageError(`--port must be 1..65535, got '${opts.port}'`);
    const origin = await consoleOrigin(ctx, port);
    let hash = '';
    if (args.id) {
      const id = String(args.id);
      const client = await ctx.client();
      // An item id is a UUID; the other resources' ids are not, so ask each kind (at once).
      const kinds = UUID.test(id) ? KINDS.slice(0, 1) : KINDS.slice(1);
      const found = await Promise.allSettled(kinds.map((k) => client.get(k.path(encodeURIComponent(id)))));
      const kind = kinds.find((_, i) => found[i]!.status === 'fulfilled');
      if (!kind) throw new NotFound(`Nothing in the console has the id '${id}'`, 'Give the id of a content item, edition, repository, hub or schema.');
      hash = `#/${[...kind.route, id].map(encodeURIComponent).join('/')}`;
    }
    const url = `${origin}/__sandbox/console${hash}`;
    const open = opts.browser && ctx.io.isTTY;
    const opened = open ? await openBrowser(url, ctx.env) : false;
    if (open && !opened) ctx.io.warn(`could not open a browser; open ${url} yourself`);
    if (ctx.globals.output !== 'table' && ctx.globals.output !== 'wide') return item({ url, opened });
    return opened ? undefined : text(url);
  },
});
