import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { col, item, type Output } from '../../output/result.js';
import { unknownName } from '../../cli/suggest.js';

const HEX_ID = /^[0-9a-f]{24}$/i;
const HEX_COLOR = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

export const STATE_COLUMNS = [col('id'), col('label'), col('color')];
/** The item's columns, its workflow state by label (the raw `workflow` field keeps the id). */
const itemColumns = (labels: ReadonlyMap<string, string>) => [
  col('id'),
  col('label'),
  col('version'),
  col('workflow state', (i: { workflow?: { state?: string } }) => (i.workflow?.state ? (labels.get(i.workflow.state) ?? i.workflow.state) : '')),
];

/** A workflow state id from an id or a label of the hub's states. */
export async function stateId(ctx: Context, client: ApiClient, value: string, hubFlag?: string): Promise<string> {
  if (HEX_ID.test(value)) return value;
  const hubId = await ctx.hubId(hubFlag, client);
  const labels: string[] = [];
  for await (const state of client.paginate<{ id: string; label: string }>(`/hubs/${hubId}/workflow-states`, 'workflow-states')) {
    if (state.label === value) return state.id;
    labels.push(state.label);
  }
  throw unknownName('workflow state labelled', value, labels, 'in this hub', 'Create one with `cms workflow create`.');
}

/** rgb(r,g,b) as the service wants it; #rrggbb is converted for convenience. */
export function rgbColor(value: string | undefined): string | undefined {
  const hex = value === undefined ? null : HEX_COLOR.exec(value);
  return hex ? `rgb(${hex.slice(1).map((h) => parseInt(h, 16)).join(',')})` : value;
}

/** Sets (or with null removes) an item's workflow state, naming the item's current version. */
export async function setItemWorkflow(ctx: Context, itemId: string, state: string | null): Promise<Output> {
  const client = await ctx.client();
  const current = await client.get<{ version: number }>(`/content-items/${itemId}`);
  const saved = await client.patch(`/content-items/${itemId}/workflow`, { version: current.version, state });
  // People read states by label: one read of the state (a failed read shows the id).
  const labels = new Map<string, string>();
  if (state) {
    const found = await client.get<{ id: string; label: string }>(`/workflow-states/${state}`).catch(() => null);
    if (found) labels.set(found.id, found.label);
  }
  return item(saved, itemColumns(labels));
}
