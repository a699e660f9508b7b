import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import { applySets, commaList } from '../../cli/input.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { linkToItem } from '../../ops/content-link.js';
import { col, item, type Output } from '../../output/result.js';

export interface ItemResource {
  id: string;
  label: string;
  version: number;
  status: string;
  locale: string | null;
  folderId: string | null;
  assignees: string[];
  deliveryKey: string | null;
  body: Record<string, unknown> & { _meta: Record<string, unknown> };
}

/**
 * Labels of the workflow states read for a table in this process (labelWorkflow), by state id; a
 * state not read shows its id. A hub has a few states: bounded all the same.
 */
const stateLabels = new Map<string, string>();
const MAX_STATE_LABELS = 10_000;
/** States one command reads the label of; the others show their ids. */
const MAX_STATE_READS = 50;

export const ITEM_COLUMNS = [
  col('id'),
  col('label'),
  col('version'),
  col('status'),
  col('locale'),
  col('schema', (i: { schema?: string; body?: { _meta?: { schema?: string } } }) => i.body?._meta?.schema ?? i.schema),
  // Last: scripts reading the earlier columns by position are unaffected.
  { ...col('workflow', (i: { workflow?: { state?: string } }) => (i.workflow?.state ? (stateLabels.get(i.workflow.state) ?? i.workflow.state) : '')), optional: true },
];

/**
 * Items as they are read, each with its workflow state's label for the WORKFLOW column: people
 * read states by label. Each state is read once (a failed read shows the id); JSON and YAML
 * output keep the service's shape and read none.
 */
export function labelWorkflow<T>(ctx: Context, client: ApiClient, items: AsyncIterable<T> | Iterable<T>): AsyncIterable<T> | Iterable<T> {
  if (ctx.globals.output !== 'table') return items;
  const label = stateLabeller(client);
  const labelled = (async function* () {
    for await (const it of items) {
      await label(it);
      yield it;
    }
  })();
  // What a paged stream learnt (cut by a limit, the total) stays readable through the wrapper.
  return 'info' in items ? Object.assign(labelled, { info: (items as { info: unknown }).info }) : labelled;
}

/** One item labelled as labelWorkflow does: for verbs that show one item. */
export async function labelOne<T>(ctx: Context, client: ApiClient, it: T): Promise<T> {
  if (ctx.globals.output === 'table') await stateLabeller(client)(it);
  return it;
}

function stateLabeller(client: ApiClient): (it: unknown) => Promise<void> {
  const byId = new Map<string, Promise<string | null>>();
  return async (it) => {
    const state = (it as { workflow?: { state?: unknown } } | null)?.workflow?.state;
    if (typeof state !== 'string' || !state) return;
    let found = byId.get(state);
    if (!found) {
      // A hub has a handful of states; a service naming one per item gets no request per item.
      if (byId.size >= MAX_STATE_READS) return;
      found = client.get<{ label?: unknown }>(`/workflow-states/${encodeURIComponent(state)}`).then(
        (s) => (typeof s.label === 'string' ? s.label : null),
        () => null,
      );
      byId.set(state, found);
    }
    const label = await found;
    if (label !== null && stateLabels.size < MAX_STATE_LABELS) stateLabels.set(state, label);
  };
}

export const VERSION_COLUMNS = [col('version'), col('label'), col('status'), col('modified by', 'lastModifiedBy'), col('modified', 'lastModifiedDate')];

export const itemArg = { name: 'item', description: 'content item id', required: true };
export const sortOption: OptionSpec = { flags: '--sort <field,dir>', description: 'sort order, e.g. label,asc (default: createdDate,desc)' };

/** The item as it is now: verbs that change an item send its current version with the change. */
export function fetchItem(client: ApiClient, id: string, version?: number): Promise<ItemResource> {
  return client.get<ItemResource>(`/content-items/${id}`, { query: { version } });
}

/** Runs an item operation that names the current version, which this fetches first. */
export async function withCurrentVersion(ctx: Context, id: string, send: (client: ApiClient, version: number) => Promise<unknown>): Promise<Output> {
  const client = await ctx.client();
  const current = await fetchItem(client, id);
  return item(await labelOne(ctx, client, await send(client, current.version)), ITEM_COLUMNS);
}

export const linkOption: OptionSpec = {
  flags: '--link <field=item id>',
  description: 'set a body field to a content link to an item, typed with that item\'s content type (hero=<id>; related=<id>,<id> or related[]=<id> for a list; repeatable)',
  repeatable: true,
};

/**
 * Applies `--link field=<id>[,<id>...]`: each id becomes {_meta.schema: core content-link,
 * contentType: the target's type, id}; one id sets a link, several (or `field[]=`) set a list. The field is a
 * path in the body (`hero`, `links[0]`, or with its `body.` prefix).
 */
export async function applyLinks(client: ApiClient, request: Record<string, unknown>, links: readonly string[] = []): Promise<void> {
  for (const assignment of links) {
    const eq = assignment.indexOf('=');
    const ids = eq > 0 ? commaList(assignment.slice(eq + 1)) : [];
    if (!ids.length) throw new UsageError(`--link needs field=<item id>, got '${assignment}'`, 'e.g. --link hero=0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c, or --link related=<id>,<id> for a list');
    // `related[]=<id>` is a list of one.
    const asList = assignment.slice(0, eq).endsWith('[]') || ids.length > 1;
    const field = assignment.slice(0, eq).replace(/\[\]$/, '');
    const path = field.startsWith('body.') || field.startsWith('body[') ? field : `body.${field}`;
    const made = await Promise.all(ids.map((id) => linkToItem(client, id)));
    applySets(request, [`${path}=${JSON.stringify(asList ? made : made[0])}`]);
  }
}
