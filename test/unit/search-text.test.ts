import { describe, expect, it } from 'vitest';
import { MAX_INDEXED_CHARS, innerHyphens, searchRow, tokens, wordTokens } from '../../src/server/items/search-text.js';
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

describe('token rules', () => {
  it('fold case and diacritics, split parts at hyphens, keep inner hyphens in words', () => {
    expect(tokens('Crème-Brûlée, 2x_3')).toEqual(['creme', 'brulee', '2x', '3']);
    expect(wordTokens('Crème-Brûlée - x- -y a_b')).toEqual(['creme-brulee', 'x', 'y', 'a', 'b']);
    expect(innerHyphens('a - b-c _-d')).toBe('a   b-c _-d');
  });
});
