import { ApiError } from '../../core/errors.js';
import { isPlanned } from '../runs/reconcile.js';
import type { CloneContext, Side } from './context.js';

// Hub modules a clone needs on the target: Content Delivery 2 (delivery keys) and the search
// index module. Reading them needs administration rights; without those a module is assumed off.

export type ModuleName = 'content-delivery-2' | 'search-index';
const NAMES: Record<ModuleName, string> = { 'content-delivery-2': 'CONTENT_DELIVERY_2', 'search-index': 'SEARCH_INDEX' };

export async function moduleEnabled(side: Side, name: ModuleName): Promise<boolean | undefined> {
  try {
    const answer = await side.client.get<{ modules: { name: string; enabled: boolean }[] }>(`/admin/hubs/${side.hubId}/modules`);
    return answer.modules.some((m) => m.name === NAMES[name] && m.enabled);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return undefined;
    throw err;
  }
}

/** Enables a module on the target hub unless it is on already (journaled as a hub-module step). */
export async function ensureModule(c: CloneContext, name: ModuleName): Promise<void> {
  const enabled = isPlanned(c.target.hubId) ? false : await moduleEnabled(c.target, name);
  const spec = { key: `module:${name}`, resource: 'hub-module', targetId: c.target.hubId, label: name };
  if (enabled) await c.sync.act({ ...spec, action: 'unchanged' }, async () => {});
  else await c.sync.act({ ...spec, action: 'create' }, () => c.target.client.post(`/admin/hubs/${c.target.hubId}/modules/${name}`));
}
