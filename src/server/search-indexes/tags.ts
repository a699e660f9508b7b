// The `tags` parameter of analytics: which searches count, by their analyticsTags.
//
//   expression := term ( OR term )*          OR: either side holds
//   term       := factor ( AND factor )*     AND binds tighter than OR
//   factor     := tag | "quoted tag" | ( expression )
//
// AND and OR are upper-case words; a tag is any run of characters other than whitespace,
// parentheses and double quotes (quote a tag that has them; \" and \\ escape inside quotes).
// A search satisfies a tag when the tag is one of its analyticsTags (exact, case-sensitive).
// The parameter arrives URL-encoded like any query parameter (spaces as %20 or +).

export type TagExpression = { tag: string } | { and: TagExpression[] } | { or: TagExpression[] };

export class TagSyntaxError extends Error {}

type Token = { kind: 'tag'; text: string } | { kind: 'AND' | 'OR' | '(' | ')' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new TagSyntaxError(`unexpected character at position ${at + 1} (an unclosed quote?)`);
    at = re.lastIndex;
    if (m[1]) tokens.push({ kind: '(' });
    else if (m[2]) tokens.push({ kind: ')' });
    else if (m[3] !== undefined) tokens.push({ kind: 'tag', text: m[3].replace(/\\(.)/g, '$1') });
    else if (m[4] === 'AND' || m[4] === 'OR') tokens.push({ kind: m[4] });
    else tokens.push({ kind: 'tag', text: m[4]! });
  }
  return tokens;
}

/** Parses a tags expression; throws TagSyntaxError with the reason. */
export function parseTags(text: string): TagExpression {
  const tokens = tokenize(text);
  if (!tokens.length) throw new TagSyntaxError('is empty');
  let pos = 0;
  const peek = () => tokens[pos]?.kind;
  const describe = () => (pos < tokens.length ? `'${tokens[pos]!.kind === 'tag' ? (tokens[pos] as { text: string }).text : tokens[pos]!.kind}'` : 'the end');

  const factor = (): TagExpression => {
    const token = tokens[pos];
    if (token?.kind === 'tag') {
      pos++;
      return { tag: token.text };
    }
    if (token?.kind === '(') {
      pos++;
      const inner = expression();
      if (peek() !== ')') throw new TagSyntaxError(`expected ')' but found ${describe()}`);
      pos++;
      return inner;
    }
    throw new TagSyntaxError(`expected a tag or '(' but found ${describe()}`);
  };
  const chain = (op: 'AND' | 'OR', next: () => TagExpression): TagExpression => {
    const parts = [next()];
    while (peek() === op) {
      pos++;
      parts.push(next());
    }
    return parts.length === 1 ? parts[0]! : op === 'AND' ? { and: parts } : { or: parts };
  };
  const term = () => chain('AND', factor);
  const expression = (): TagExpression => chain('OR', term);

  const result = expression();
  if (pos < tokens.length) throw new TagSyntaxError(`expected AND or OR but found ${describe()}`);
  return result;
}

export function tagsMatch(expression: TagExpression, tags: readonly string[]): boolean {
  if ('tag' in expression) return tags.includes(expression.tag);
  if ('and' in expression) return expression.and.every((e) => tagsMatch(e, tags));
  return expression.or.some((e) => tagsMatch(e, tags));
}
