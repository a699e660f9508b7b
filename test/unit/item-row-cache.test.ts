import { describe, expect, it } from 'vitest';
import { ItemRowCache } from '../../src/server/items/row-cache.js';
import { noteItemChanged, takeChangedItems } from '../../src/server/items/written.js';
import type { Db } from '../../src/server/core/db.js';
import type { ItemRow } from '../../src/server/items/store.js';

const row = (id: string, json: string): ItemRow => ({ keys: { id, hubId: 'h', contentRepositoryId: 'r', status: 'ACTIVE', folderId: null, locale: null }, json });

describe('ItemRowCache', () => {
  it('loads a row once, remembers a missing one, and loads again after clear()', () => {
    const cache = new ItemRowCache();
    const loads: string[] = [];
    const load = (id: string, found = true) => () => (loads.push(id), found ? row(id, '{}') : undefined);
    expect(cache.get('a', load('a'))?.keys.id).toBe('a');
    expect(cache.get('a', load('a'))?.keys.id).toBe('a');
    expect(cache.get('x', load('x', false))).toBeUndefined();
    expect(cache.get('x', load('x', false))).toBeUndefined();
    expect(loads).toEqual(['a', 'x']);
    cache.clear();
    cache.get('a', load('a'));
    expect(loads).toEqual(['a', 'x', 'a']);
  });

  it('stays within its row and character bounds, and never keeps a row larger than the whole budget (nor lets it evict the rest)', () => {
    const cache = new ItemRowCache(2, 10);
    let loads = 0;
    const get = (id: string, json: string) => cache.get(id, () => (loads++, row(id, json)));
    get('a', '1234');
    get('b', '1234');
    get('c', '1234'); // a third row: starts over with c alone
    expect(loads).toBe(3);
    get('c', '1234');
    expect(loads).toBe(3);
    get('a', '1234');
    expect(loads).toBe(4);
    get('d', '1234567'); // 4 + 4 + 7 > 10 characters: starts over with d
    get('d', '1234567');
    expect(loads).toBe(5);
    get('big', 'x'.repeat(11)); // over the budget on its own: answered, never kept
    get('big', 'x'.repeat(11));
    expect(loads).toBe(7);
    get('d', '1234567');
    expect(loads).toBe(7); // and it did not push the others out
  });

  it('delete() drops one row (and its characters) and keeps the others', () => {
    const cache = new ItemRowCache(10, 10);
    let loads = 0;
    const get = (id: string, json: string) => cache.get(id, () => (loads++, row(id, json)));
    get('a', '1234');
    get('b', '1234');
    cache.delete('a');
    cache.delete('never-loaded');
    get('b', '1234');
    expect(loads).toBe(2);
    get('a', '12345');
    expect(loads).toBe(3);
    // 5 + 4 characters held: a row of 1 more fits without starting over.
    get('c', '1');
    get('b', '1234');
    get('a', '12345');
    expect(loads).toBe(4);
  });

  it('noteItemChanged() collects written ids per connection until taken', () => {
    const one = {} as Db;
    const two = {} as Db;
    noteItemChanged(one, 'a');
    noteItemChanged(one, 'b');
    noteItemChanged(one, 'a');
    noteItemChanged(two, 'c');
    expect([...takeChangedItems(one)]).toEqual(['a', 'b']);
    expect([...takeChangedItems(one)]).toEqual([]);
    expect([...takeChangedItems(two)]).toEqual(['c']);
  });
});
