import type { FieldChange } from '../runs/diff.js';
import { diff } from '../runs/diff.js';
import { matchTarget } from '../runs/reconcile.js';
import { pick, topKeys, type CloneContext } from './context.js';

// Step `webhooks`: each webhook by label. New ones are created inactive unless --webhooks active
// (then, and only then, the target follows the source's active flag). Secret header values are
// never returned by the source: a new secret header gets a placeholder value the user must
// replace, an existing one keeps the value set on the target. Webhooks a search index owns are
// left to the search-indexes step, which recreates them with the index.

interface Header {
  key: string;
  value: string | null;
  secret?: boolean | null;
}

interface Webhook {
  id: string;
  label: string;
  active: boolean;
  handlers: string[];
  headers: Header[];
  owner?: unknown;
}

export const PLACEHOLDER = 'REPLACE-ME';
const FIELDS = ['label', 'events', 'handlers', 'method', 'secret', 'filters', 'customPayload', 'notifications'];

export async function cloneWebhooks(c: CloneContext): Promise<void> {
  const source = (await c.sourceList<Webhook>(`/hubs/${c.source.hubId}/webhooks`, 'webhooks')).filter((w) => !ownedByIndex(w));
  const targets = await c.targetList<Webhook>(`/hubs/${c.target.hubId}/webhooks`, 'webhooks');
  c.progress(source.length, 'webhooks');
  for (const hook of source) await cloneWebhook(c, hook, matchTarget(c.ids, 'webhook', hook.id, targets.filter((t) => !ownedByIndex(t)), (t) => t.label === hook.label));
}

const ownedByIndex = (w: Webhook) => Boolean(w.owner) || w.handlers.some((h) => h.startsWith('sandbox://search-index/'));

function cloneWebhook(c: CloneContext, hook: Webhook, existing: Webhook | undefined): Promise<string | undefined> {
  const followActive = c.plan.webhooks === 'active';
  // Compared without secret values: neither side shows them.
  const comparable = (w: Webhook) => ({ ...pick(w, FIELDS), headers: w.headers.map((h) => ({ key: h.key, value: h.secret ? null : h.value, secret: Boolean(h.secret) })), ...(followActive ? { active: w.active } : {}) });
  const wanted = comparable(hook);
  const changed = (t: Webhook): FieldChange[] => diff(comparable(t), wanted);
  const base = `/hubs/${c.target.hubId}/webhooks`;
  const key = `webhook:${hook.id}`;
  // Worked out before the create so a dry run says the same about placeholders.
  const newHeaders = existing ? [] : headersFor(c, hook, undefined);
  return c.sync.unit<Webhook>({
    key,
    resource: 'webhook',
    sourceId: hook.id,
    label: hook.label,
    existing,
    identify: (t) => ({ id: t.id }),
    changes: changed,
    create: async () => {
      const body = { ...pick(hook, FIELDS), headers: newHeaders, active: followActive ? hook.active : false };
      return { id: (await c.target.client.post<{ id: string }>(base, body, { idempotencyKey: c.sync.idempotencyKey(key) })).id };
    },
    update: async (t) => {
      const body: Record<string, unknown> = pick(wanted, topKeys(changed(t)));
      if ('headers' in body) body.headers = headersFor(c, hook, t);
      await c.target.client.patch(`${base}/${t.id}`, body);
      return { id: t.id };
    },
    before: (t) => pick(t, topKeys(changed(t)).filter((k) => k !== 'headers')),
  }).then((id) => {
    if (id && !existing && !followActive && hook.active) c.note(`webhook '${hook.label}' was created inactive: activate it when it is ready (cms webhook update --active, or clone with --webhooks active)`);
    return id;
  });
}

/**
 * Header values for the target: secret ones as null (the target keeps its value) when the target
 * has the header, else a placeholder, said in the summary.
 */
function headersFor(c: CloneContext, hook: Webhook, target: Webhook | undefined): Header[] {
  return hook.headers.map((h) => {
    if (!h.secret) return { key: h.key, value: h.value, secret: false };
    if (target?.headers.some((t) => t.key.toLowerCase() === h.key.toLowerCase())) return { key: h.key, value: null, secret: true };
    c.note(`webhook '${hook.label}': secret header '${h.key}' cannot be read from the source; it was created with the placeholder value '${PLACEHOLDER}': set the real value on the target`);
    return { key: h.key, value: PLACEHOLDER, secret: true };
  });
}
