import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/ops/runs/journal.js';
import { resolvePending, type ItemNow, type Probe } from '../../src/ops/runs/resolve.js';

// How resume and undo settle the writes a killed run journaled as intents without results.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const target = { apiUrl: 'http://sandbox.localhost', profile: null, hubId: 'hub1' };
const start = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-resolve-'));
  dirs.push(dir);
  return { dir, journal: Journal.start(dir, { command: 'item import', options: {}, target }) };
};

/** A service whose items are as given; a replayed create answers with the id given for its key. */
function probe(items: Record<string, ItemNow>, creates: Record<string, string> = {}): Probe & { replays: string[] } {
  const replays: string[] = [];
  return {
    replays,
    item: async (id) => items[id],
    replay: async (req) => {
      replays.push(req.idempotencyKey);
      return { id: creates[req.idempotencyKey]!, version: 1 };
    },
  };
}

describe('resolving intents left by a kill', () => {
  it('an update the service applied becomes a done step with its before-image; one it did not is unsent', async () => {
    const { dir, journal } = start();
    journal.intend({ key: 'item:a', action: 'update', resource: 'item', sourceId: 'a', targetId: 'ta', version: 3, before: { version: 3, deliveryKey: null } });
    journal.intend({ key: 'item:b', action: 'update', resource: 'item', sourceId: 'b', targetId: 'tb', version: 5, before: { version: 5 } });
    expect(journal.pending().map((i) => i.key)).toEqual(['item:a', 'item:b']);
    const result = await resolvePending(journal, { target: probe({ ta: { version: 4 }, tb: { version: 5 } }) });
    expect(result).toEqual({ happened: 1, unsent: 1, unknown: 0 });
    const reopened = Journal.open(dir, journal.id);
    expect(reopened.done('item:a')).toMatchObject({ action: 'update', targetId: 'ta', version: 4, before: { version: 3, deliveryKey: null } });
    // Resume does the unsent one again; nothing is pending any more.
    expect(reopened.done('item:b')).toBeUndefined();
    expect(reopened.pending()).toEqual([]);
  });

  it('an archive happened only when the item is one version on and archived', async () => {
    const { journal } = start();
    const archive = (key: string, targetId: string) => journal.intend({ key, action: 'archive', resource: 'item', targetId, version: 2, before: { version: 2, status: 'ACTIVE' }, expect: { status: 'ARCHIVED' } });
    archive('archive:a', 'ta');
    archive('archive:b', 'tb');
    archive('archive:c', 'tc');
    const service = probe({ ta: { version: 3, status: 'ARCHIVED' }, tb: { version: 3, status: 'ACTIVE' } });
    expect(await resolvePending(journal, { target: service })).toEqual({ happened: 1, unsent: 2, unknown: 0 });
    expect(journal.done('archive:a')).toMatchObject({ action: 'archive', version: 3, before: { status: 'ACTIVE' } });
  });

  it('a create is sent again with its Idempotency-Key and journaled with the id the service gives', async () => {
    const { journal } = start();
    const request = { method: 'POST' as const, path: '/content-repositories/r/content-items', body: { label: 'x' }, idempotencyKey: 'run:item:a' };
    journal.intend({ key: 'item:a', action: 'create', resource: 'item', sourceId: 'a', partial: true, label: 'x', request });
    const service = probe({}, { 'run:item:a': 'ta' });
    await resolvePending(journal, { target: service });
    expect(service.replays).toEqual(['run:item:a']);
    expect(journal.done('item:a')).toMatchObject({ action: 'create', targetId: 'ta', version: 1, partial: true });
    expect([...journal.mapping('item')]).toEqual([['a', 'ta']]);
  });

  it('an intent with a result, an unsent mark or an answered failure is settled; a failure without an answer is not', async () => {
    const { journal } = start();
    const intent = (key: string) => journal.intend({ key, action: 'update', resource: 'item', targetId: 't', version: 1 });
    intent('item:done');
    journal.step({ key: 'item:done', action: 'update', resource: 'item', targetId: 't', version: 2 });
    intent('item:refused');
    journal.fail('item:refused', '409 Conflict', 409);
    intent('item:lost');
    journal.fail('item:lost', 'socket hang up');
    intent('item:unsent');
    journal.unsent('item:unsent');
    expect(journal.pending().map((i) => i.key)).toEqual(['item:lost']);
  });

  it('a write to the run\'s source is left pending without a client for the source', async () => {
    const { journal } = start();
    journal.intend({ key: 'archive-source:a', action: 'archive', resource: 'item', targetId: 'sa', version: 1, side: 'source', expect: { status: 'ARCHIVED' } });
    expect(await resolvePending(journal, { target: probe({ sa: { version: 2, status: 'ARCHIVED' } }) })).toEqual({ happened: 0, unsent: 0, unknown: 1 });
    expect(await resolvePending(journal, { target: probe({}), source: probe({ sa: { version: 2, status: 'ARCHIVED' } }) })).toEqual({ happened: 1, unsent: 0, unknown: 0 });
  });
});
