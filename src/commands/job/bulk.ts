import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { readJsonFile } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { waitForJob } from '../../ops/wait-for-job.js';
import { stateId } from '../workflow/_shared.js';
import { BULK_JOB_COLUMNS, BULK_JOB_TYPES, bulkJobPath, resultsOf, type BulkJob, type BulkJobTypeName } from './_bulk.js';

interface Flags {
  hub?: string;
  file?: string;
  item?: string[];
  assignee?: string[];
  state?: string;
  repo?: string;
  wait?: boolean;
  timeout: number;
}

interface FetchedItem {
  id: string;
  version: number;
  label: string;
  body: { _meta: { name?: string } };
}

export default defineCommand<Flags>({
  summary: 'Run a bulk job on many content items of a hub (assign-users, copy-items, publish, unarchive, update-workflow)',
  description:
    'The selection comes from --file (a JSON array of entries, or an object {selection, workflow}; an entry may name its item by id, as `cms item list -o json` prints it) or, for simple cases, from --item flags: each item is fetched so its entry names its current version. The job runs asynchronously; --wait waits for it, prints one result per item and exits 3 when some items failed.',
  examples: [
    'cms job bulk publish --item 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --item 7d0f3a52-1b9e-4f7a-8c1d-0a2b3c4d5e6f --wait',
    'cms job bulk assign-users --item 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --assignee alice --assignee bob',
    'cms job bulk update-workflow --file selection.json --state "In review" --wait -o json',
    'cms job bulk copy-items --item 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --repo archive --wait',
  ],
  args: [{ name: 'type', description: 'job type', required: true, choices: BULK_JOB_TYPES }],
  options: [
    hubOption,
    { flags: '--file <file>', description: 'JSON selection: an array of entries or {selection, workflow} (- for stdin)' },
    { flags: '--item <id>', description: 'content item to include, at its current version (repeatable)', repeatable: true },
    { flags: '--assignee <user>', description: 'assign-users: a user to assign (repeatable)', repeatable: true },
    { flags: '--state <id|label|none>', description: 'update-workflow: the workflow state, or none to remove it' },
    { flags: '--repo <id|name>', description: 'copy-items with --item: the repository to copy into', complete: 'repositories' },
    { flags: '--wait', description: 'wait for the job and print the result of each item' },
    { flags: '--timeout <duration>', description: 'with --wait: give up after this long (exit 8; 30s, 2m, or seconds)', duration: true, default: '5m' },
  ],
  async run(ctx, args, opts) {
    const type = args.type as BulkJobTypeName;
    if (!BULK_JOB_TYPES.includes(type)) throw new UsageError(`No bulk job type '${args.type}'; use ${BULK_JOB_TYPES.join(', ')}`);
    const timeoutMs = opts.timeout;
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const body = opts.file ? await fileBody(opts.file, type) : { selection: await selectionFromFlags(ctx, client, type, opts) };
    if (opts.state !== undefined && type !== 'update-workflow') throw new UsageError('--state applies to update-workflow only');
    if (opts.state !== undefined) body.workflow = { state: opts.state === 'none' ? null : await stateId(ctx, client, opts.state, hubId) };
    if (type === 'update-workflow' && body.workflow === undefined) throw new UsageError('update-workflow needs --state <id|label|none> (or workflow in the file)');
    const job = await client.post<BulkJob>(`/hubs/${hubId}/bulk-jobs/${type}`, body);
    if (!opts.wait) return item(job, BULK_JOB_COLUMNS);
    const finished = await waitForJob<BulkJob>(client, bulkJobPath(hubId, job.id), { timeoutMs, intervalMs: 250, io: ctx.io, signal: ctx.signal, what: 'Bulk job' });
    return resultsOf(finished);
  },
});

/** The request body from a file: an array is the selection, an object is sent as it is. */
async function fileBody(path: string, type: BulkJobTypeName): Promise<Record<string, unknown>> {
  const value = await readJsonFile(path);
  if (Array.isArray(value)) return { selection: value.map((e) => asEntry(e, type)) };
  if (value && typeof value === 'object') {
    const body = value as Record<string, unknown>;
    return Array.isArray(body.selection) ? { ...body, selection: body.selection.map((e) => asEntry(e, type)) } : body;
  }
  throw new UsageError(`${path} must hold a JSON array of entries or an object {selection, ...}`);
}

/** What a selection entry of each job type takes besides contentItemId (service description, bulk jobs). */
const ENTRY_FIELDS: Record<BulkJobTypeName, string[]> = {
  'assign-users': ['assignees'],
  'copy-items': ['version', 'contentRepositoryId', 'folderId', 'name', 'label'],
  publish: ['version'],
  unarchive: ['version'],
  'update-workflow': ['version'],
};

/**
 * An entry as cms prints items (`id`, as in `cms item list -o json`) becomes the service's
 * {contentItemId, ...} with only the fields the job type takes; an entry already naming
 * contentItemId is sent as it is.
 */
function asEntry(entry: unknown, type: BulkJobTypeName): unknown {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  const e = entry as Record<string, unknown>;
  if ('contentItemId' in e || typeof e.id !== 'string') return entry;
  return Object.fromEntries([['contentItemId', e.id], ...ENTRY_FIELDS[type].filter((k) => e[k] !== undefined).map((k) => [k, e[k]])]);
}

/** One entry per --item, each naming the item's current version plus what the job type needs. */
async function selectionFromFlags(ctx: Context, client: ApiClient, type: BulkJobTypeName, opts: Flags): Promise<Record<string, unknown>[]> {
  if (!opts.item?.length) throw new UsageError('Give --file <selection.json> or at least one --item <id>');
  const extra = await extraFields(ctx, client, type, opts);
  const items = await Promise.all(opts.item.map((id) => client.get<FetchedItem>(`/content-items/${encodeURIComponent(id)}`)));
  return items.map((i) => ({ contentItemId: i.id, version: i.version, ...extra(i) }));
}

async function extraFields(ctx: Context, client: ApiClient, type: BulkJobTypeName, opts: Flags): Promise<(i: FetchedItem) => Record<string, unknown>> {
  if (type === 'assign-users') {
    if (!opts.assignee?.length) throw new UsageError('assign-users needs at least one --assignee');
    return () => ({ assignees: opts.assignee });
  }
  if (type === 'copy-items') {
    if (!opts.repo) throw new UsageError('copy-items needs --repo <id|name>, the repository to copy into');
    const contentRepositoryId = await repoId(ctx, opts.repo, opts.hub, client);
    // A copy keeps the source's label and name.
    return (i) => ({ contentRepositoryId, label: i.label, name: i.body._meta.name ?? i.label });
  }
  return () => ({});
}
