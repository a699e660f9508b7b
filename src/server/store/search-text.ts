import type { ContentItem } from './items.js';

// What the full-text index holds for an item, and the token rules the query side must share.
// Tokens are what SQLite's unicode61 tokenizer makes: letters and digits, case and diacritics
// folded. Field-qualified tokens are `<field>__<word>`, the field being a body property name
// (or label, status, locale, schema, deliveryKey, contentRepositoryId, folderId), folded the same way.

export function tokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

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

export interface SearchRow {
  label: string;
  body: string;
  fields: string;
}

export function searchRow(item: ContentItem): SearchRow {
  const texts: string[] = [];
  const fielded: string[] = [];
  const addField = (field: string, text: string) => {
    const words = tokens(text);
    if (words.length) fielded.push(words.map((w) => fieldToken(field, w)).join(' '));
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
  return { label: item.label, body: texts.join(' _ '), fields: fielded.join(' _ ') };
}
