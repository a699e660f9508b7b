import type { ApiClient } from '../../core/client.js';
import { ApiError } from '../../core/errors.js';
import type { IntentEntry, Journal, ReplayableRequest, StepEntry } from './journal.js';

// After a kill, a run's journal may hold writes it meant to make without their results: the
// service may or may not have applied them. Resume and undo first ask the service and journal
// the answer, so resume neither repeats nor miscounts them and undo reverts what happened:
// - a create is sent again with its Idempotency-Key: the service answers a create it made with
//   its first answer (and makes one it never received: either way the run made it);
// - a version-checked item write (update, archive, unarchive, restore) happened when the item
//   is now exactly one version past the one the write was based on, with the fields it set;
//   otherwise it did not (the service refuses a write based on an older version).

export interface ItemNow {
  version: number;
  [field: string]: unknown;
}

/** What resolution asks the service: an item as it is now, and a create sent again. */
export interface Probe {
  item(id: string): Promise<ItemNow | undefined>;
  replay(request: ReplayableRequest): Promise<{ id: string; version?: number }>;
}

export interface Resolved {
  happened: number;
  unsent: number;
  /** Left pending: no probe for their side of the run. */
  unknown: number;
}

/** Resolves every pending intent of the journal, journaling a result or `unsent` for each. */
export async function resolvePending(journal: Journal, probes: { target: Probe; source?: Probe }): Promise<Resolved> {
  const out: Resolved = { happened: 0, unsent: 0, unknown: 0 };
  for (const intent of journal.pending()) {
    const probe = intent.side === 'source' ? probes.source : probes.target;
    const outcome = probe ? await outcomeOf(intent, probe) : undefined;
    if (outcome === undefined) out.unknown++;
    else if (outcome === null) {
      journal.unsent(intent.key);
      out.unsent++;
    } else {
      journal.step(outcome);
      out.happened++;
    }
  }
  return out;
}

/** The step the intent became, null when it did not happen, undefined when it cannot be told. */
export async function outcomeOf(intent: IntentEntry, probe: Probe): Promise<Omit<StepEntry, 't' | 'at'> | null | undefined> {
  const { t: _t, at: _at, request, expect, targetId, ...step } = intent;
  if (request) {
    const made = await probe.replay(request);
    return { ...step, targetId: made.id, version: made.version };
  }
  if (intent.resource !== 'item' || !targetId || intent.version === undefined) return undefined;
  const now = await probe.item(targetId);
  if (!now || now.version !== intent.version + 1) return null;
  for (const [field, value] of Object.entries(expect ?? {})) if ((now[field] ?? null) !== (value ?? null)) return null;
  return { ...step, targetId, version: now.version };
}

/** A probe over the API. */
export function clientProbe(client: ApiClient): Probe {
  return {
    async item(id) {
      try {
        return await client.get<ItemNow>(`/content-items/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return undefined;
        throw err;
      }
    },
    async replay(request) {
      const res = await client.request<{ id: string; version?: number }>(request.method, request.path, { body: request.body, query: request.query, idempotencyKey: request.idempotencyKey });
      return { id: res.data.id, version: res.data.version };
    },
  };
}
