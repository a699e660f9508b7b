import Database from '../helpers/sqlite.js';
import { describe, expect, it } from 'vitest';
import { Collection, type SortSpec } from '../../src/server/core/collection.js';
import type { Db } from '../../src/server/core/db.js';

interface Doc {
  id: string;
  kind: string;
  created: string;
  title: string;
}

/** 250 documents whose sort keys tie in runs of ten, with bodies large enough that sorting them would be felt. */
function world() {
  const db = new Database(':memory:') as unknown as Db;
  db.exec('CREATE TABLE docs (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, created TEXT NOT NULL, data TEXT NOT NULL)');
  db.exec('CREATE INDEX docs_kind ON docs(kind, created)');
  const docs = new Collection<Doc>(db, 'docs', { id: (d) => d.id, kind: (d) => d.kind, created: (d) => d.created }, { created: 'created' });
  const ids: string[] = [];
  const insert = db.prepare('INSERT INTO docs (id, kind, created, data) VALUES (?, ?, ?, ?)');
  for (let n = 0; n < 250; n++) {
    const doc = { id: `d${n}`, kind: 'a', created: `2026-01-${String(1 + Math.floor(n / 10)).padStart(2, '0')}`, title: `t${(n * 7) % 13}`, pad: 'x'.repeat(2000) };
    insert.run(doc.id, doc.kind, doc.created, JSON.stringify(doc));
    ids.push(doc.id);
  }
  return { db, docs, ids };
}

const everyPage = (docs: Collection<Doc>, sort: SortSpec[], size: number) => {
  const seen: Doc[] = [];
  for (let page = 0; ; page++) {
    const { items, total } = docs.page({ where: 'kind = ?', params: ['a'] }, { page, size, sort });
    expect(total).toBe(250);
    if (!items.length) return seen;
    seen.push(...items);
  }
};

describe('Collection.page', () => {
  it.each([
    [[{ field: 'created', dir: 'asc' }]],
    [[{ field: 'created', dir: 'desc' }]],
    [[{ field: 'title', dir: 'asc' }]],
    [[{ field: 'title', dir: 'desc' }, { field: 'created', dir: 'asc' }]],
  ] as SortSpec[][][])('pages sorted by %j hold every document once, in order, ties broken the same way every time', (sort) => {
    const { docs, ids } = world();
    const seen = everyPage(docs, sort, 30);
    expect(seen.map((d) => d.id).sort()).toEqual([...ids].sort());
    const key = (d: Doc) => sort.map((s) => (s.field === 'created' ? d.created : d.title));
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [key(seen[i - 1]!), key(seen[i]!)];
      const cmp = a.map((x, k) => (x === b[k] ? 0 : (x < b[k]! ? -1 : 1) * (sort[k]!.dir === 'desc' ? -1 : 1))).find((c) => c !== 0) ?? 0;
      expect(cmp).toBeLessThanOrEqual(0);
    }
    expect(everyPage(docs, sort, 30).map((d) => d.id)).toEqual(seen.map((d) => d.id));
  });

  it('an order an index serves needs no sort, in either direction; any other sorts keys and rowids, never the stored bodies', () => {
    const { db, docs } = world();
    const plans: string[] = [];
    const prepare = db.prepare.bind(db);
    (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
      plans.push((prepare(`EXPLAIN QUERY PLAN ${sql}`).all('a', 'a', 30, 0) as { detail: string }[]).map((r) => r.detail).join(' | '));
      return prepare(sql);
    };
    for (const sort of [[{ field: 'created', dir: 'asc' }], [{ field: 'created', dir: 'desc' }], [{ field: 'title', dir: 'asc' }]] as SortSpec[][]) {
      docs.page({ where: 'kind = ?', params: ['a'] }, { page: 1, size: 30, sort });
    }
    // The page's rowids are chosen first (a list subquery); the bodies of just those rows are read after.
    const inner = (plan: string) => /LIST SUBQUERY \d+ \| (.*?) \| SCALAR SUBQUERY/.exec(plan)?.[1] ?? '';
    const [asc, desc, title] = plans.slice(-3).map(inner);
    expect(asc).toMatch(/COVERING INDEX docs_kind/);
    expect(asc).not.toMatch(/TEMP B-TREE/);
    expect(desc).toMatch(/COVERING INDEX docs_kind/);
    expect(desc).not.toMatch(/TEMP B-TREE/);
    expect(title).toMatch(/TEMP B-TREE FOR ORDER BY/);
  });
});
