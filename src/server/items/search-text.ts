import type { Db } from '../core/db.js';
import { stmt } from '../core/statements.js';

// What the full-text index holds for an item, and the token rules the query side must share.
// Tokens are what SQLite's unicode61 tokenizer makes (tokenchars '-_'): letters and digits,
// case and diacritics folded. Field-qualified tokens are `<field>__<word>`, the field being a
// body property name (or label, status, locale, schema, deliveryKey, contentRepositoryId,
// folderId), folded the same way.
//
// Each text is indexed twice. The part columns (label, body, fields) split words at every
// hyphen, so a plain word also matches inside "apple-orange". The word columns (label_words,
// body_words, fields_words) keep a hyphen between two word characters, so a hyphenated word is
// one word: quoted phrases and hyphenated query words match there, exactly.

const STRAY_HYPHEN = /(?<![\p{L}\p{N}\p{M}\p{Co}_])-|-(?![\p{L}\p{N}\p{M}\p{Co}_])/gu;

/** Text with only the hyphens that join two word characters left ("a - b-c" is "a   b-c"). */
export const innerHyphens = (text: string): string => text.replace(STRAY_HYPHEN, ' ');

/** Text with every hyphen a separator. */
const splitHyphens = (text: string): string => text.replaceAll('-', ' ');

const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** Folded words split at every hyphen (the part columns). */
export const tokens = (text: string): string[] => partsOf(fold(text));

/** Folded words that keep their inner hyphens (the word columns). */
export const wordTokens = (text: string): string[] => wordsOf(fold(text));

const partsOf = (folded: string): string[] => folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

const wordsOf = (folded: string): string[] =>
  innerHyphens(folded)
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));

export function fieldName(name: string): string {
  return tokens(name).join('');
}

export const fieldToken = (field: string, word: string): string => `${fieldName(field)}__${word}`;

/**
 * Characters of an item's string values the full-text index takes; the rest is not searchable.
 * Indexing runs inside the write's transaction on the one thread: a 10 MB item indexed whole
 * held every other client for seconds.
 */
export const MAX_INDEXED_CHARS = 256 * 1024;

/** What the index reads of an item (store.ts's ContentItem is one); store.ts imports this file. */
export interface IndexedItem {
  label: string;
  body: Record<string, unknown> & { _meta: { schema: string } };
  status: string;
  locale: string | null;
  deliveryKey: string | null;
  contentRepositoryId: string;
  folderId: string | null;
}

export interface SearchRow {
  label: string;
  body: string;
  fields: string;
  labelWords: string;
  bodyWords: string;
  fieldsWords: string;
}

export function searchRow(item: IndexedItem): SearchRow {
  const texts: string[] = [];
  const fielded: string[] = [];
  const fieldedWords: string[] = [];
  // Field names repeat (every string of a `tags` array): fold each once per row, not per word.
  const prefixes = new Map<string, string>();
  const addField = (field: string, text: string) => {
    let prefix = prefixes.get(field);
    if (prefix === undefined) prefixes.set(field, (prefix = `${fieldName(field)}__`));
    // Folded once for both kinds of token.
    const folded = fold(text);
    const parts = partsOf(folded);
    if (parts.length) fielded.push(prefix + parts.join(` ${prefix}`));
    const words = wordsOf(folded);
    if (words.length) fieldedWords.push(prefix + words.join(` ${prefix}`));
  };
  let room = MAX_INDEXED_CHARS;
  const walk = (value: unknown, key: string, inMeta: boolean): void => {
    if (typeof value === 'string') {
      if ((inMeta && key === 'schema') || room <= 0) return;
      const text = value.length > room ? value.slice(0, room) : value;
      room -= text.length;
      texts.push(text);
      addField(key, text);
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      addField(key, String(value));
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, key, inMeta));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k, inMeta || k === '_meta');
    }
  };
  walk(item.body, 'body', false);
  addField('label', item.label);
  addField('status', item.status);
  if (item.locale) addField('locale', item.locale);
  addField('schema', item.body._meta.schema);
  if (item.deliveryKey) addField('deliveryKey', item.deliveryKey);
  // Clients of the hosted service scope searches with contentRepositoryId:"…" folderId:"…".
  addField('contentRepositoryId', item.contentRepositoryId);
  if (item.folderId) addField('folderId', item.folderId);
  // '_' is a token of its own (the tokenizer keeps underscores) that no query produces, so a
  // quoted phrase cannot match across two different values.
  const body = texts.join(' _ ');
  return {
    label: splitHyphens(item.label),
    body: splitHyphens(body),
    fields: fielded.join(' _ '),
    labelWords: innerHyphens(item.label),
    bodyWords: innerHyphens(body),
    fieldsWords: fieldedWords.join(' _ '),
  };
}

/** Replaces the index row of an item (rowid = content_items.seq). */
export function indexSearchRow(db: Db, seq: number, item: IndexedItem): void {
  stmt(db, 'DELETE FROM content_search WHERE rowid = ?').run(seq);
  const r = searchRow(item);
  stmt(db, 'INSERT INTO content_search (rowid, label, body, fields, label_words, body_words, fields_words) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    seq,
    r.label,
    r.body,
    r.fields,
    r.labelWords,
    r.bodyWords,
    r.fieldsWords,
  );
}

/**
 * Rebuilds the index row of every item (a migration that changes what the index holds), a page of
 * items at a time: a sandbox can hold millions of items, more than fit in memory at once.
 */
export function reindexAllItems(db: Db): void {
  const page = db.prepare('SELECT seq, data FROM content_items WHERE seq > ? ORDER BY seq LIMIT 500');
  for (let after = 0; ; ) {
    const rows = page.all(after) as { seq: number; data: string }[];
    if (!rows.length) return;
    for (const row of rows) indexSearchRow(db, row.seq, JSON.parse(row.data) as IndexedItem);
    after = rows[rows.length - 1]!.seq;
  }
}
