import type BetterSqlite3 from 'better-sqlite3';
import Database from '../../helpers/sqlite.js';
import { join } from 'node:path';
import { searchRow, type SearchRow } from '../../../src/server/items/search-text.js';
import type { ContentItem } from '../../../src/server/items/store.js';

// Checks of a sandbox database from outside the service: SQLite's own integrity check, foreign
// keys, and the invariants the item store keeps (JSON rows, one version row per version, the
// full-text row of each item).



export function openDb(dataDir: string, readonly = false): BetterSqlite3.Database {
  const db = new Database(join(dataDir, 'sandbox.db'), { readonly, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  return db;
}

export interface DbReport {
  integrity: string[];
  foreignKeyViolations: number;
  items: number;
  versions: number;
  problems: string[];
}

/**
 * Everything that must hold of a sandbox database. `problems` lists each broken invariant (empty
 * when all hold); integrity is SQLite's answer (['ok'] when sound).
 */
export function checkDatabase(dataDir: string): DbReport {
  const db = openDb(dataDir);
  try {
    const integrity = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const fk = db.pragma('foreign_key_check') as unknown[];
    const problems: string[] = [];
    // FTS5's own check: the index agrees with the rows it stores.
    try {
      db.prepare("INSERT INTO content_search(content_search) VALUES('integrity-check')").run();
    } catch (err) {
      problems.push(`full-text index integrity-check: ${(err as Error).message}`);
    }
    const rows = db.prepare('SELECT seq, id, version, label, status, data FROM content_items').all() as { seq: number; id: string; version: number; label: string; status: string; data: string }[];
    let versions = 0;
    const versionRows = db.prepare('SELECT version, data FROM content_item_versions WHERE item_id = ? ORDER BY version');
    // The index keeps tokens, not texts (contentless): each item's expected row goes into a
    // scratch index made by the same statement, and the two are compared token by token.
    const realSql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'content_search'").pluck().get() as string;
    db.exec(`${realSql.replace(/CREATE VIRTUAL TABLE content_search/i, 'CREATE VIRTUAL TABLE temp.expected_search')};
      CREATE VIRTUAL TABLE temp.expected_terms USING fts5vocab(temp, expected_search, instance);
      CREATE VIRTUAL TABLE temp.real_terms USING fts5vocab(main, content_search, instance);`);
    const expectRow = db.prepare('INSERT INTO temp.expected_search (rowid, label, body, fields, label_words, body_words, fields_words) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const row of rows) {
      let item: ContentItem;
      try {
        item = JSON.parse(row.data) as ContentItem;
      } catch {
        problems.push(`item ${row.id}: data is not JSON`);
        continue;
      }
      if (item.id !== row.id || item.version !== row.version || item.label !== row.label || item.status !== row.status) {
        problems.push(`item ${row.id}: columns (${row.version}, ${row.status}) disagree with its JSON (${item.version}, ${item.status})`);
      }
      const vs = versionRows.all(row.id) as { version: number; data: string }[];
      versions += vs.length;
      const numbers = vs.map((v) => v.version);
      const expected = Array.from({ length: row.version }, (_, i) => i + 1);
      if (JSON.stringify(numbers) !== JSON.stringify(expected)) problems.push(`item ${row.id}: version rows ${numbers.join(',')} for version ${row.version}`);
      for (const v of vs) {
        try {
          if ((JSON.parse(v.data) as ContentItem).version !== v.version) problems.push(`item ${row.id}: version row ${v.version} holds another version`);
        } catch {
          problems.push(`item ${row.id}: version row ${v.version} is not JSON`);
        }
      }
      const want: SearchRow = searchRow(item);
      expectRow.run(row.seq, want.label, want.body, want.fields, want.labelWords, want.bodyWords, want.fieldsWords);
    }
    const termsByDoc = (table: string) => {
      const out = new Map<number, string[]>();
      for (const t of db.prepare(`SELECT doc, col, term, offset FROM ${table}`).all() as { doc: number; col: string; term: string; offset: number }[]) {
        (out.get(t.doc) ?? out.set(t.doc, []).get(t.doc)!).push(`${t.col}:${t.offset}:${t.term}`);
      }
      for (const terms of out.values()) terms.sort();
      return out;
    };
    const real = termsByDoc('temp.real_terms');
    const expected = termsByDoc('temp.expected_terms');
    for (const row of rows) {
      const has = real.get(row.seq);
      if (!has) {
        if (expected.get(row.seq)?.length) problems.push(`item ${row.id}: no full-text row`);
      } else if (has.join('\n') !== (expected.get(row.seq) ?? []).join('\n')) problems.push(`item ${row.id}: full-text row is stale`);
    }
    const ftsCount = db.prepare('SELECT count(*) FROM content_search').pluck().get() as number;
    if (ftsCount !== rows.length) problems.push(`full-text index has ${ftsCount} rows for ${rows.length} items`);
    return { integrity: integrity.map((r) => r.integrity_check), foreignKeyViolations: fk.length, items: rows.length, versions, problems };
  } finally {
    db.close();
  }
}
