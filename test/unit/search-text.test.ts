import { describe, expect, it } from 'vitest';
import { MAX_INDEXED_CHARS, searchRow } from '../../src/server/items/search-text.js';
import type { ContentItem } from '../../src/server/items/store.js';

const item = (body: Record<string, unknown>) =>
  ({ label: 'Big one', status: 'ACTIVE', contentRepositoryId: 'r1', body: { _meta: { schema: 'https://x.test/s.json' }, ...body } }) as unknown as ContentItem;

describe('searchRow: what the full-text index takes of an item', () => {
  it(`indexes at most ${MAX_INDEXED_CHARS} characters of string values, whatever the item's size`, () => {
    const words = 'alpha beta gamma delta '.repeat(500_000);
    const row = searchRow(item({ title: 'first words', text: words, late: 'zebra' }));
    expect(row.body.length).toBeLessThan(MAX_INDEXED_CHARS + 100);
    expect(row.body).toContain('first words');
    expect(row.body).not.toContain('zebra');
    // The label, status and schema are indexed whatever the body holds.
    expect(row.fields).toContain('label__big');
    expect(row.fields).toContain('status__active');
  });

  it('a small item is indexed whole', () => {
    const row = searchRow(item({ title: 'first words', late: 'zebra' }));
    expect(row.body).toBe('first words _ zebra');
    expect(row.fields).toContain('late__zebra');
  });
});
