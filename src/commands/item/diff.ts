import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { diff, unifiedDiff } from '../../ops/runs/diff.js';
import { item, text } from '../../output/result.js';
import { fetchItem, itemArg } from './_shared.js';

interface Opts {
  from?: number;
  to?: number;
}

export default defineCommand<Opts>({
  summary: 'Show how a content item changed between two versions (label, folder, locale, body, ...)',
  description:
    'A unified diff of the two versions as pretty JSON (keys sorted, so only real changes show): the label, folder, locale, assignees, status and every other field the versions hold, and the body; bookkeeping that changes with every version (version number, dates, who) is left out, coloured on a terminal. By default the previous version against the current one; --from and --to pick others. With -o json (or yaml) the changes as a list: path, op (add, remove, change), from and to.',
  examples: [
    'cms item diff 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c',
    'cms item diff 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --from 1 --to 3',
    'cms item diff 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c -o json',
  ],
  args: [itemArg],
  options: [
    { flags: '--from <version>', description: 'the older version (default: the one before --to)', integer: true },
    { flags: '--to <version>', description: 'the newer version (default: the current one)', integer: true },
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const current = await fetchItem(client, args.item);
    const toVersion = opts.to ?? current.version;
    const fromVersion = opts.from ?? toVersion - 1;
    if (fromVersion < 1) {
      throw new UsageError(`Item ${args.item} has only one version${opts.to ? ' up to --to' : ''}: nothing to compare`, 'Give --from and --to to compare two versions; `cms item versions` lists them.');
    }
    const [from, to] = await Promise.all([fetchItem(client, args.item, fromVersion), toVersion === current.version ? current : fetchItem(client, args.item, toVersion)]);
    const changes = diff(compared(from), compared(to));
    if (ctx.globals.output !== 'table' && ctx.globals.output !== 'wide') return item(changes);
    if (!changes.length) return text(`No difference between versions ${fromVersion} and ${toVersion}.`);
    const paint = await ctx.io.colors();
    const lines = unifiedDiff(pretty(compared(from)), pretty(compared(to))).map((l) => (l.startsWith('@@') ? paint.dim(l) : l[0] === '-' ? paint.red(l) : l[0] === '+' ? paint.green(l) : l));
    return text([paint.bold(`--- version ${fromVersion}`), paint.bold(`+++ version ${toVersion}`), ...lines].join('\n'));
  },
});

/** Pretty JSON with sorted keys: the same body always prints the same lines. */
function pretty(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort(value), null, 2);
}

/** Fields that change with every version whatever was edited: not differences anyone made. */
const BOOKKEEPING = /^(id|version|_links|hubId|contentRepositoryId|created[A-Z]\w*|lastModified[A-Z]\w*|lastPublished[A-Z]\w*|lastUnpublished[A-Z]\w*|publishingStatus)$/;

/** What two versions are compared on: every field of the item but its bookkeeping. */
function compared(item: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([k]) => !BOOKKEEPING.test(k)));
}
