import { resolve } from 'node:path';
import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { col, item } from '../../output/result.js';
import { exportItems } from '../../ops/export.js';
import { LAYOUTS, exportDcCli, type Layout } from '../../ops/dc-cli-layout.js';
import { FileMapping } from '../../ops/files/mapping.js';
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/client.js';
import type { ExportOptions } from '../../ops/export.js';
import { progressOption } from '../../ops/runs/bulk-run.js';
import { createProgress, type ProgressMode } from '../../ops/runs/progress.js';

interface Opts {
  hub?: string;
  repo?: string[];
  folder?: string;
  status: string;
  search?: string;
  facet?: string[];
  withDeps?: boolean;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  pageSize: number;
  progress: ProgressMode;
  layout: Layout;
}

const SUMMARY_COLUMNS = [
  col('directory', 'dir'),
  col('items'),
  col('written'),
  col('unchanged'),
  col('removed'),
  col('dependencies'),
  col('repositories'),
  col('folders'),
  col('types'),
  col('schemas'),
  col('missing links', 'missingLinks'),
  col('seconds'),
  col('items/s', 'itemsPerSecond'),
];

export default defineCommand<Opts>({
  summary: 'Export content items (with their types, schemas and folders) to a directory, one file per item',
  description: [
    'Writes <dir>/items/<repository>/<id>.json for every selected item, <dir>/types and <dir>/schemas for the content types they use, and <dir>/manifest.json (source hub, repositories, folders, counts). Pages are fetched concurrently and written as they arrive, so memory stays flat however many items there are.',
    'Select by --repo (default: every repository of the hub), --folder (with its sub-folders), --status (default ACTIVE), --search (text search, the syntax of cms item find) and --facet (the facet syntax of cms item facet --field). --with-deps adds every item the selected ones link to, transitively, from any repository of the hub.',
    '--layout dc-cli writes the layout of the hosted service\'s own CLI instead: <dir>/<repository label>/<folder>/.../<item label>.json, each file the item as the service returns it (no manifest, types or schemas), so a team can switch back and forth; an item keeps its file name across exports. See docs/migrating.md.',
    'Running it again into the same directory rewrites only the items that changed (an index of content hashes is kept in <dir>/.index.json) and removes the files of items no longer selected. Import the directory with cms item import.',
  ].join('\n\n'),
  examples: [
    'cms item export ./content --hub dev',
    'cms item export ./pages --repo content --folder 5f1a2b3c4d5e6f7a8b9c0d1e --with-deps',
    'cms item export ./dc-export/content --hub prod --layout dc-cli',
    "cms item export ./banners --search 'label:banner' --facet 'locale:IN:en-GB,fr-FR' --progress json",
  ],
  args: [{ name: 'dir', description: 'directory to write (created if missing)', required: true }],
  options: [
    hubOption,
    { flags: '--repo <id|name>', description: 'only this repository (repeatable or comma list)', repeatable: true, complete: 'repositories' },
    { flags: '--folder <id>', description: 'only items in this folder and its sub-folders' },
    { flags: '--status <list>', description: 'comma list of ACTIVE, ARCHIVED', default: 'ACTIVE', upperCase: true },
    { flags: '--search <text>', description: 'only items matching a text search (syntax of cms item find)' },
    { flags: '--facet <facet>', description: 'only items a facet filter lets through, e.g. locale:IN:en-GB (repeatable; syntax of cms item facet --field)', repeatable: true },
    { flags: '--with-deps', description: 'also export every item the selected items link to, transitively' },
    { flags: '--concurrency <n>', description: 'requests in flight at most (default: start at 8 and grow while the service keeps up, up to 64)', integer: true },
    { flags: '--page-size <n>', description: 'items per page request (at most 1000; larger pages hold more in memory)', integer: true, default: 100 },
    { flags: '--layout <layout>', description: "layout to write: cms, or dc-cli (the hosted service CLI's content export)", default: 'cms', choices: [...LAYOUTS] },
    progressOption,
  ],
  async run(ctx, args, opts) {
    const status = commaList(opts.status).map((s) => s.toUpperCase());
    if (!status.length || status.some((s) => s !== 'ACTIVE' && s !== 'ARCHIVED')) throw new UsageError(`--status must be a comma list of ACTIVE and ARCHIVED, got '${opts.status}'`);
    if (opts.pageSize < 1 || opts.pageSize > 1000) throw new UsageError('--page-size must be 1..1000');
    if (opts.concurrency !== undefined && opts.concurrency < 1) throw new UsageError('--concurrency must be at least 1');
    const facets = opts.facet?.length ? (await import('./facet.js')).facetOf : undefined;
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const repoIds = await Promise.all(commaList(opts.repo).map((r) => repoId(ctx, r, opts.hub, client)));
    const progress = await createProgress(opts.progress, ctx.io);
    const summary = await (opts.layout === 'dc-cli' ? dcCli(ctx, hubId) : exportItems)(client, {
      dir: resolve(String(args.dir)),
      hubId,
      repoIds,
      folderId: opts.folder,
      status: status.join(','),
      search: opts.search,
      facets: (opts.facet ?? []).map((f) => facets!(f)),
      withDeps: Boolean(opts.withDeps),
      concurrency: opts.concurrency,
      pageSize: opts.pageSize,
      signal: ctx.signal,
      progress,
    });
    progress.stop({ ...summary });
    if (summary.missingLinks) ctx.io.warn(`${summary.missingLinks} linked item(s) could not be read from the hub; they are listed under missingLinks in the manifest`);
    return item(summary, SUMMARY_COLUMNS);
  },
});

/** The dc-cli export, knowing which source ids this hub's imports mapped (so their files keep their names). */
function dcCli(ctx: Context, hubId: string) {
  const connection = ctx.connection();
  const mapping = FileMapping.forTarget(connection.dataDir, { apiUrl: connection.apiUrl, profile: connection.profile, hubId });
  const imported = mapping.all('item');
  mapping.close();
  return (client: ApiClient, opts: ExportOptions) => exportDcCli(client, opts, imported);
}
