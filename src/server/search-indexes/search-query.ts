import { badRequest } from '../core/errors.js';
import { fieldName, fieldToken, innerHyphens, tokens, wordTokens } from '../items/index.js';
import { raw, sql, type Sql } from './search-sql.js';

// The text search syntax of the description: text -> AST (parseQuery) -> one FTS5 MATCH
// expression plus SQL for what FTS5 cannot say (compileQuery).
//
//   apple              items containing the word (label and body text)
//   apple orange       both: whitespace separates groups, and every group must match (AND)
//   apple,orange       either: a comma joins terms into one group (OR); spaces around it are fine
//   apple -orange      a leading hyphen negates a term
//   apple-orange       inner hyphens belong to the word: only the hyphenated word matches
//   -apple-orange      ... and a leading hyphen negates it: NOT the word "apple-orange"
//   label:apple        the word within a field: label, status, locale, schema, deliveryKey,
//                      contentRepositoryId, folderId or any body property (a dotted path uses
//                      its last name: body.title is title). A field applies to one term.
//   "10:30"            an exact phrase; - : , inside quotes are plain text; \" is a quote.
//                      An unmatched quote takes the rest of the query as the phrase.
//
// Words are matched as the index tokenizes them: case and diacritics do not matter, and other
// punctuation splits a word into adjacent words (a phrase). Exactness comes from the index's
// two forms of each text (store/search-text.ts): a plain word searches the part columns, where
// it also matches inside "apple-orange"; quoted text and hyphenated words search the word
// columns, where "apple-orange" is one word, so "apple orange" does not match it.
// User text never reaches FTS5 as syntax: every term becomes a double-quoted string of letters,
// digits, underscores and inner hyphens, so `*`, `^`, `(`, NEAR, AND or OR in a query are plain
// words or ignored punctuation. A term without any letter or digit (a lone `-`, `*`) is ignored.

/** One searched thing: a word or a quoted phrase, maybe within a field, maybe negated. */
export interface Term {
  /** The text as written, without quotes or the negating hyphen. */
  text: string;
  /** The field before ':', as written; absent for a label-and-body search. */
  field?: string;
  negated: boolean;
  quoted: boolean;
}

/** Terms joined by commas: an item matches the group when it matches any term of it. */
export type AnyOf = Term[];

/** A parsed query: an item matches when it matches every group. */
export interface SearchAst {
  groups: AnyOf[];
}

/** What a query asks of the store. */
export interface CompiledSearch {
  /** FTS5 expression items must match (it ranks them); null when the query only excludes. */
  match: string | null;
  /** Further conditions on `ci.seq` (exclusions without a match, OR groups with a negation). */
  conditions: Sql[];
  /** The query names the status field itself, so the ACTIVE-only default does not apply. */
  namesStatus: boolean;
}

export const MAX_QUERY_LENGTH = 1000;
export const MAX_TERMS = 50;

/** Columns of words split at hyphens (plain words) and of whole words (exact terms), as text and as field tokens. */
const TEXT_COLUMNS = { parts: '{label body}', words: '{label_words body_words}' };
const FIELD_COLUMNS = { parts: 'fields', words: 'fields_words' };
const ROWS_MATCHING = 'SELECT rowid FROM content_search WHERE content_search MATCH';

export function parseQuery(input: string): SearchAst {
  if (input.length > MAX_QUERY_LENGTH) throw queryError(`The query is longer than ${MAX_QUERY_LENGTH} characters`, input);
  const scanner = new Scanner(input);
  const groups: AnyOf[] = [];
  let joinNext = false;
  for (scanner.skipSpaces(); !scanner.done; scanner.skipSpaces()) {
    if (scanner.eat(',')) {
      joinNext = groups.length > 0;
      continue;
    }
    const term = readTerm(scanner);
    if (joinNext) groups[groups.length - 1]!.push(term);
    else groups.push([term]);
    joinNext = false;
  }
  const count = groups.reduce((n, g) => n + g.length, 0);
  if (count > MAX_TERMS) throw queryError(`The query has ${count} terms; at most ${MAX_TERMS} are allowed`, input);
  return { groups };
}

/** Parses and compiles; 400 when the query has nothing to search for. */
export function compileSearch(input: string): CompiledSearch {
  const compiled = compileQuery(parseQuery(input));
  if (!compiled) throw queryError('The query has nothing to search for: give at least one word with a letter or digit', input);
  return compiled;
}

/** The query for the store; null when no term holds a word. */
export function compileQuery(ast: SearchAst): CompiledSearch | null {
  const required: string[] = [];
  const excluded: string[] = [];
  const conditions: Sql[] = [];
  for (const group of ast.groups) {
    const terms = group.map((t) => ({ phrase: ftsPhrase(t), negated: t.negated })).filter((t) => t.phrase !== null);
    const positive = terms.filter((t) => !t.negated).map((t) => t.phrase!);
    const negative = terms.filter((t) => t.negated).map((t) => t.phrase!);
    if (!negative.length) {
      if (positive.length) required.push(any(positive));
    } else if (!positive.length) {
      // -a,-b is "not a or not b", which is "not (a and b)".
      excluded.push(all(negative));
    } else {
      conditions.push(sql`(ci.seq IN (${raw(ROWS_MATCHING)} ${any(positive)}) OR ci.seq NOT IN (${raw(ROWS_MATCHING)} ${all(negative)}))`);
    }
  }
  if (!required.length && !excluded.length && !conditions.length) return null;
  let match: string | null = null;
  if (required.length) match = excluded.length ? `${all(required)} NOT ${any(excluded)}` : all(required);
  else if (excluded.length) conditions.unshift(sql`ci.seq NOT IN (${raw(ROWS_MATCHING)} ${any(excluded)})`);
  return { match, conditions, namesStatus: namesStatus(ast) };
}

/** Whether a term is on the status field: the query then chooses the statuses itself. */
const namesStatus = (ast: SearchAst): boolean => ast.groups.some((g) => g.some((t) => t.field !== undefined && fieldOf(t.field) === 'status'));

/** The FTS5 phrase of a term, or null when it holds no word. */
function ftsPhrase(term: Term): string | null {
  // Quoted text is exact and a hyphenated word is one word: both search whole words.
  const form = term.quoted || innerHyphens(term.text).includes('-') ? 'words' : 'parts';
  if (term.field === undefined) {
    const words = indexWords(term.text, form === 'words');
    return words.length ? `${TEXT_COLUMNS[form]}:${quoted(words)}` : null;
  }
  const field = fieldOf(term.field);
  const words = form === 'words' ? wordTokens(term.text) : tokens(term.text);
  return words.length ? `${FIELD_COLUMNS[form]}:${quoted(words.map((w) => fieldToken(field, w)))}` : null;
}

/**
 * The words the index tokenizer (unicode61, tokenchars '-_') makes of a text: runs of letters,
 * digits, marks and underscores, split at hyphens too unless wholeWords (then a hyphen between
 * two word characters stays, as in the word columns). They are left unfolded so FTS5 folds case
 * and diacritics exactly as it did for the documents; runs without a letter or digit are dropped.
 */
export function indexWords(text: string, wholeWords = false): string[] {
  const normalized = text.normalize('NFC');
  return (wholeWords ? innerHyphens(normalized).split(/[^\p{L}\p{N}\p{M}\p{Co}_-]+/u) : normalized.split(/[^\p{L}\p{N}\p{M}\p{Co}_]+/u)).filter((w) =>
    /[\p{L}\p{N}]/u.test(w),
  );
}

/** The indexed name of a field: the last name of a dotted path, folded like the index. */
function fieldOf(written: string): string {
  const name = fieldName(written.split('.').pop()!);
  if (!name) throw queryError(`'${written}' is not a field name; put text with a colon in quotes, e.g. "10:30"`, written);
  return name;
}

// Every word is letters, digits, marks, underscores or inner hyphens, so it cannot close the quotes.
const quoted = (words: string[]): string => `"${words.join(' ')}"`;
const any = (parts: string[]): string => (parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`);
const all = (parts: string[]): string => (parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`);

function readTerm(s: Scanner): Term {
  const negated = s.eat('-');
  if (s.peek() === '"') return { text: s.quoted(), negated, quoted: true };
  const word = s.word();
  if (!s.eat(':')) return { text: word, negated, quoted: false };
  if (!word) throw queryError(`':' needs a field name before it; put text with a colon in quotes, e.g. "10:30"`, s.input);
  if (s.peek() === '"') return { field: word, text: s.quoted(), negated, quoted: true };
  const value = s.word();
  if (!value) throw queryError(`The field '${word}' needs a word or a quoted phrase after ':'`, s.input);
  if (s.peek() === ':') throw queryError(`'${word}:${value}:' has a second ':'; put text with a colon in quotes, e.g. ${word}:"10:30"`, s.input);
  return { field: word, text: value, negated, quoted: false };
}

const SPACE = /\s/u;
/** Characters that end an unquoted word: whitespace and the reserved , " : (a hyphen does not). */
const WORD_END = /[\s,":]/u;

class Scanner {
  private pos = 0;
  constructor(readonly input: string) {}

  get done(): boolean {
    return this.pos >= this.input.length;
  }

  peek(): string | undefined {
    return this.input[this.pos];
  }

  eat(char: string): boolean {
    if (this.input[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  skipSpaces(): void {
    while (!this.done && SPACE.test(this.input[this.pos]!)) this.pos++;
  }

  word(): string {
    const start = this.pos;
    while (!this.done && !WORD_END.test(this.input[this.pos]!)) this.pos++;
    return this.input.slice(start, this.pos);
  }

  /** A quoted phrase from the opening quote to the closing one, or to the end when unmatched. */
  quoted(): string {
    this.pos++;
    let text = '';
    while (!this.done) {
      const c = this.input[this.pos++]!;
      if (c === '"') return text;
      if (c === '\\' && this.input[this.pos] === '"') {
        text += '"';
        this.pos++;
      } else text += c;
    }
    return text;
  }
}

function queryError(message: string, input: string) {
  return badRequest(message, { code: 'INVALID_QUERY', property: 'query', invalidValue: input });
}
