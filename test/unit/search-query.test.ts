import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileQuery, compileSearch, parseQuery, MAX_QUERY_LENGTH, MAX_TERMS, type Term } from '../../src/server/search-indexes/search-query.js';
import { ItemSelection } from '../../src/server/search-indexes/search-select.js';
import { ServiceError } from '../../src/server/core/errors.js';
import { openDatabase, type Db } from '../../src/server/core/db.js';
import { migrations } from '../../src/server/migrations.js';
import { saveItem, type ContentItem } from '../../src/server/items/store.js';
import { reindexAllItems } from '../../src/server/items/search-text.js';

// The text search syntax: text -> AST -> FTS5 expression and SQL. The last sections run the
// compiled queries on a real index (the sandbox's migrations, items saved through saveItem).

const word = (text: string, extra: Partial<Term> = {}): Term => ({ text, negated: false, quoted: false, ...extra });
const not = (text: string, extra: Partial<Term> = {}): Term => word(text, { negated: true, ...extra });
const phrase = (text: string, extra: Partial<Term> = {}): Term => word(text, { quoted: true, ...extra });

/** The 400 a query answers, or null when it compiles. */
function rejection(query: string): ServiceError | null {
  try {
    compileSearch(query);
    return null;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
}

describe('parseQuery: the syntax table of the description', () => {
  it.each<[string, string, Term[][]]>([
    ['a word', 'apple', [[word('apple')]]],
    ['two words: both (AND)', 'apple orange', [[word('apple')], [word('orange')]]],
    ['a comma: either (OR)', 'apple,orange', [[word('apple'), word('orange')]]],
    ['a leading hyphen negates', 'apple -orange', [[word('apple')], [not('orange')]]],
    ['an inner hyphen belongs to the word', '-apple-orange', [[not('apple-orange')]]],
    ['a hyphenated word without negation', 'apple-orange', [[word('apple-orange')]]],
    ['a field', 'label:apple', [[word('apple', { field: 'label' })]]],
    ['quoted text', '"10:30"', [[phrase('10:30')]]],
  ])('%s: %s', (_name, query, groups) => {
    expect(parseQuery(query).groups).toEqual(groups);
  });

  it('mixes OR, negation and a quoted field phrase', () => {
    expect(parseQuery('apple,orange -pear title:"big fish"').groups).toEqual([
      [word('apple'), word('orange')],
      [not('pear')],
      [phrase('big fish', { field: 'title' })],
    ]);
  });

  it('OR groups may hold fields and negations', () => {
    expect(parseQuery('label:apple,title:pear').groups).toEqual([[word('apple', { field: 'label' }), word('pear', { field: 'title' })]]);
    expect(parseQuery('apple,-orange').groups).toEqual([[word('apple'), not('orange')]]);
    expect(parseQuery('-label:apple').groups).toEqual([[not('apple', { field: 'label' })]]);
  });

  it('spaces around a comma keep the OR; stray commas are ignored', () => {
    expect(parseQuery(' apple , orange ').groups).toEqual([[word('apple'), word('orange')]]);
    expect(parseQuery(',apple,,orange,').groups).toEqual([[word('apple'), word('orange')]]);
  });

  it('reserved characters are plain text inside quotes', () => {
    expect(parseQuery('"a-b, c:d -e"').groups).toEqual([[phrase('a-b, c:d -e')]]);
    expect(parseQuery('-"big fish"').groups).toEqual([[not('big fish', { quoted: true })]]);
  });

  it('an unmatched quote takes the rest of the query as the phrase', () => {
    expect(parseQuery('apple "big fish, -pear').groups).toEqual([[word('apple')], [phrase('big fish, -pear')]]);
    expect(parseQuery('title:"big').groups).toEqual([[phrase('big', { field: 'title' })]]);
  });

  it('\\" inside quotes is a quote, not the end of the phrase', () => {
    expect(parseQuery('label:"say \\"hi\\" now"').groups).toEqual([[phrase('say "hi" now', { field: 'label' })]]);
  });

  it('terms written back to back are separate groups (hosted clients send status:"ACTIVE"folderId:"x")', () => {
    expect(parseQuery('status:"ACTIVE"contentRepositoryId:"5d4a"').groups).toEqual([
      [phrase('ACTIVE', { field: 'status' })],
      [phrase('5d4a', { field: 'contentRepositoryId' })],
    ]);
  });

  it('a misplaced colon is a 400 that says to use quotes', () => {
    for (const query of [':apple', 'title:', 'title: apple', 'a:b:c', '-:x']) {
      const err = rejection(query);
      expect(err?.status, query).toBe(400);
      expect(err!.entries[0]).toMatchObject({ code: 'INVALID_QUERY', property: 'query' });
    }
    expect(rejection('a:b:c')!.message).toContain('quotes');
    expect(rejection(':apple')!.message).toContain('field name');
  });

  it('limits the query length and the number of terms', () => {
    expect(rejection('a'.repeat(MAX_QUERY_LENGTH + 1))?.status).toBe(400);
    expect(rejection(Array.from({ length: MAX_TERMS + 1 }, (_, i) => `w${i}`).join(' '))?.message).toContain(`at most ${MAX_TERMS}`);
    expect(rejection(Array.from({ length: MAX_TERMS }, (_, i) => `w${i}`).join(' '))).toBeNull();
  });
});

describe('compileQuery: FTS5 expressions', () => {
  const match = (query: string) => compileSearch(query).match;

  it.each([
    ['apple', '{label body}:"apple"'],
    ['apple orange', '({label body}:"apple" AND {label body}:"orange")'],
    ['apple,orange', '({label body}:"apple" OR {label body}:"orange")'],
    ['apple -orange', '{label body}:"apple" NOT {label body}:"orange"'],
    // A hyphenated word is one word, and quoted text is exact: both search whole words.
    ['apple-orange', '{label_words body_words}:"apple-orange"'],
    ['"apple orange"', '{label_words body_words}:"apple orange"'],
    ['apple- -orange', '{label body}:"apple" NOT {label body}:"orange"'],
    ['label:apple', 'fields:"label__apple"'],
    ['"10:30"', '{label_words body_words}:"10 30"'],
    ['Crème', '{label body}:"Crème"'],
    ['Title:"Big Fish"', 'fields_words:"title__big title__fish"'],
    ['title:Crème-brûlée', 'fields_words:"title__creme-brulee"'],
    ['body.title:fish', 'fields:"title__fish"'],
    ['deliveryKey:home-page', 'fields_words:"deliverykey__home-page"'],
    ['apple,orange -pear title:"big fish"', '(({label body}:"apple" OR {label body}:"orange") AND fields_words:"title__big title__fish") NOT {label body}:"pear"'],
    ['label:apple,title:pear', '(fields:"label__apple" OR fields:"title__pear")'],
    ['apple -pear -plum', '{label body}:"apple" NOT ({label body}:"pear" OR {label body}:"plum")'],
  ])('%s -> %s', (query, expected) => {
    const compiled = compileSearch(query);
    expect(compiled.match).toBe(expected);
    expect(compiled.conditions).toEqual([]);
  });

  it('only negations exclude from everything: a condition, no match', () => {
    const compiled = compileSearch('-apple-orange');
    expect(compiled.match).toBeNull();
    expect(compiled.conditions).toHaveLength(1);
    expect(compiled.conditions[0]!.text).toBe('ci.seq NOT IN (SELECT rowid FROM content_search WHERE content_search MATCH ?)');
    expect(compiled.conditions[0]!.params).toEqual(['{label_words body_words}:"apple-orange"']);
    expect(compileSearch('-apple -pear').conditions[0]!.params).toEqual(['({label body}:"apple" OR {label body}:"pear")']);
  });

  it('an OR group with a negation becomes SQL: matches the words or lacks all the negated ones', () => {
    const compiled = compileSearch('fish apple,-orange,-pear');
    expect(compiled.match).toBe('{label body}:"fish"');
    expect(compiled.conditions[0]!.text).toBe(
      '(ci.seq IN (SELECT rowid FROM content_search WHERE content_search MATCH ?) OR ci.seq NOT IN (SELECT rowid FROM content_search WHERE content_search MATCH ?))',
    );
    expect(compiled.conditions[0]!.params).toEqual(['{label body}:"apple"', '({label body}:"orange" AND {label body}:"pear")']);
    expect(compileSearch('-apple,-orange').conditions[0]!.params).toEqual(['({label body}:"apple" AND {label body}:"orange")']);
  });

  it('names the status when a term is on the status field, negated or not', () => {
    expect(compileSearch('apple').namesStatus).toBe(false);
    expect(compileSearch('status:archived').namesStatus).toBe(true);
    expect(compileSearch('apple -Status:archived').namesStatus).toBe(true);
    expect(match('status:archived')).toBe('fields:"status__archived"');
  });

  it('terms without a letter or digit are ignored; a query of nothing but those is a 400', () => {
    expect(match('apple - * ^')).toBe('{label body}:"apple"');
    expect(match('apple,*')).toBe('{label body}:"apple"');
    expect(compileQuery(parseQuery('* -'))).toBeNull();
    for (const query of ['-', '*', '""', ', ,', '- -', '"   "', '(*)']) expect(rejection(query)?.message, query).toContain('nothing to search for');
  });
});

describe('user input is never FTS5 syntax', () => {
  const HOSTILE = [
    'apple*',
    '^apple',
    'apple NEAR orange',
    'NEAR(apple orange, 2)',
    'apple AND orange',
    'apple OR orange',
    'NOT apple',
    '(apple)',
    '{label}:apple',
    'label:(apple OR orange)',
    '"apple" OR "orange"',
    'apple"',
    '""""',
    'col:"x" + y',
    "'; DROP TABLE content_items; --",
    'a\u0000b',
    '\\"',
    'title:"*"',
    'fields:title__apple',
    '_ __ ___',
  ];

  it.each(HOSTILE)('%s compiles to quoted words only', (query) => {
    const err = rejection(query);
    if (err) {
      expect(err.status).toBe(400);
      return;
    }
    const { match, conditions } = compileSearch(query);
    const expressions = [match, ...conditions.flatMap((c) => c.params)].filter((e): e is string => e !== null);
    for (const e of expressions) {
      // Outside quoted strings only our own syntax remains: column filters, AND/OR/NOT, parentheses.
      const outside = e.replace(/"[^"]*"/g, '""');
      expect(outside.replace(/\{label body\}:|\{label_words body_words\}:|fields:|fields_words:|\bAND\b|\bOR\b|\bNOT\b|[()\s"]/g, ''), e).toBe('');
      // Inside quotes only words of letters, digits, marks and underscores (hyphens only between
      // two of them) separated by spaces.
      const WORD = '[\\p{L}\\p{N}\\p{M}_]+(?:-[\\p{L}\\p{N}\\p{M}_]+)*';
      for (const [, inner] of e.matchAll(/"([^"]*)"/g)) expect(inner, e).toMatch(new RegExp(`^${WORD}( ${WORD})*$`, 'u'));
    }
  });

  it('operator words are searched as words', () => {
    expect(compileSearch('NEAR AND OR NOT').match).toBe('({label body}:"NEAR" AND {label body}:"AND" AND {label body}:"OR" AND {label body}:"NOT")');
    // The comma is still the OR of this syntax.
    expect(compileSearch('NEAR(apple orange, 2)').match).toBe('({label body}:"NEAR apple" AND ({label body}:"orange" OR {label body}:"2"))');
  });
});

describe('compiled queries on a real index', () => {
  let db: Db;
  const HUB = 'hub-1';
  let seq = 0;

  const save = (label: string, body: Record<string, unknown> = {}, status: ContentItem['status'] = 'ACTIVE', hubId = HUB) => {
    const id = `item-${++seq}`;
    const item: ContentItem = {
      id,
      hubId,
      contentRepositoryId: 'repo-1',
      folderId: null,
      body: { _meta: { schema: 'https://schema.example.com/fruit.json' }, ...body },
      version: 1,
      label,
      status,
      locale: null,
      assignees: [],
      deliveryKey: null,
      deliveryId: id,
      publishingStatus: 'NONE',
      validationState: 'VALID',
      createdBy: 'test',
      createdDate: new Date(Date.UTC(2024, 0, seq)).toISOString(),
      lastModifiedBy: 'test',
      lastModifiedDate: new Date(Date.UTC(2024, 0, seq)).toISOString(),
    };
    saveItem(db, item, 'CREATE', true);
  };

  const labels = (query: string, hubId = HUB): string[] => {
    const result = new ItemSelection(hubId).search(compileSearch(query)).page(db, { page: 0, size: 100, sort: [] });
    return result.items.map((i) => i.label).sort();
  };

  beforeAll(() => {
    db = openDatabase({ dataDir: ':memory:', migrations });
    // Items only: the hub and repository rows they reference are not needed here.
    db.pragma('foreign_keys = OFF');
    save('Apple pie', { title: 'Grandma apple pie' });
    save('Orange juice', { title: 'Fresh orange' });
    save('apple-orange smoothie', { title: 'Blend' });
    save('Big fish story', { title: 'big fish', text: 'NEAR the AND river (OR not)' });
    save('Meeting at 10:30', { title: 'Agenda' });
    save('Crème brûlée', { title: 'Dessert' });
    save('Pear tart', { title: 'apple free' });
    save('Other hub apple', {}, 'ACTIVE', 'hub-2');
  });
  afterAll(() => db.close());

  it.each<[string, string[]]>([
    ['apple', ['Apple pie', 'Pear tart', 'apple-orange smoothie']],
    ['apple orange', ['apple-orange smoothie']],
    ['apple,orange', ['Apple pie', 'Orange juice', 'Pear tart', 'apple-orange smoothie']],
    ['apple -orange', ['Apple pie', 'Pear tart']],
    ['-apple-orange', ['Apple pie', 'Big fish story', 'Crème brûlée', 'Meeting at 10:30', 'Orange juice', 'Pear tart']],
    ['label:apple', ['Apple pie', 'apple-orange smoothie']],
    ['title:"big fish"', ['Big fish story']],
    ['"10:30"', ['Meeting at 10:30']],
    ['CREME', ['Crème brûlée']],
    ['label:apple,title:orange', ['Apple pie', 'Orange juice', 'apple-orange smoothie']],
    ['apple,-orange', ['Apple pie', 'Big fish story', 'Crème brûlée', 'Meeting at 10:30', 'Pear tart', 'apple-orange smoothie']],
  ])('%s', (query, expected) => {
    expect(labels(query)).toEqual(expected);
  });

  it('hostile input runs without an SQL error and finds what its words find', () => {
    expect(labels('NEAR(the AND river)')).toEqual(['Big fish story']);
    expect(labels('apple*')).toEqual(labels('apple'));
    expect(labels('(OR not)')).toEqual(['Big fish story']);
  });

  it('random punctuation never reaches SQLite as syntax', () => {
    const alphabet = ['a', 'b', 'é', ' ', '-', ':', '"', ',', '*', '^', '(', ')', '{', '}', '+', '\\', "'", '_', '.', 'NEAR', 'AND', 'OR', 'NOT'];
    let state = 42;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 500; n++) {
      const query = Array.from({ length: 1 + (next() % 12) }, () => alphabet[next() % alphabet.length]).join('');
      const err = rejection(query);
      if (err) expect(err.status, query).toBe(400);
      else expect(() => labels(query), query).not.toThrow();
    }
  });
  it('a reindex (a migration) rebuilds every row, a page at a time, and finds what it found before', () => {
    for (let i = 0; i < 1_201; i++) save(`Bulk quince ${i}`, { title: 'crate' });
    const before = labels('quince').length;
    expect(before).toBe(100);
    const count = (query: string) => db.prepare('SELECT count(*) FROM content_search WHERE content_search MATCH ?').pluck().get(query) as number;
    expect(count('quince')).toBe(1_201);
    db.exec('DELETE FROM content_search');
    expect(count('quince')).toBe(0);
    reindexAllItems(db);
    expect(count('quince')).toBe(1_201);
    expect(count('apple')).toBe(4);
    expect(labels('crème')).toEqual(['Crème brûlée']);
  });
});
