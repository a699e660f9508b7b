import { badRequest, serviceError } from './errors.js';

/** The nesting a body may have (as much as common JSON parsers allow, Jackson's default among them). */
const MAX_DEPTH = 1000;

/**
 * The service reads only the first complete JSON value of a body and ignores anything after it.
 * This finds where that value ends (strings and escapes respected) and parses just that prefix.
 */
export function parseFirstJsonValue(text: string): unknown {
  let i = 0;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (i === text.length) return undefined;
  const start = i;
  const first = text[i];
  let end: number;
  if (first === '{' || first === '[') {
    let depth = 0;
    end = -1;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === '"') {
        i = stringEnd(text, i);
        if (i < 0) break;
      } else if (ch === '{' || ch === '[') {
        // Deeper values overflow the stack of whatever walks them (JSON.stringify of an error's invalidValue).
        if (++depth > MAX_DEPTH) throw malformed(`the JSON body is nested deeper than ${MAX_DEPTH} levels`);
      } else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) {
          end = i + 1;
          break;
        }
      }
    }
    if (end < 0) throw malformed('the JSON body is incomplete');
  } else if (first === '"') {
    end = stringEnd(text, start);
    if (end < 0) throw malformed('the JSON body is incomplete');
    end++;
  } else {
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(start));
    if (!m) throw malformed(`unexpected character '${first}' at position ${start}`);
    end = start + m[0].length;
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch (err) {
    throw malformed((err as Error).message);
  }
  const proto = protoKeyPath(value);
  if (proto !== null) {
    throw badRequest(`Property ${proto} is not allowed: a "__proto__" key cannot be stored as data`, { code: 'VALIDATION_FAILED', entity: 'body', property: proto, invalidValue: '__proto__' });
  }
  return value;
}

/**
 * The path (`body.list.0.__proto__`) of the first `__proto__` key in a parsed value, or null.
 * JSON.parse keeps such a key as an own property, but every copy made with assignment (schema
 * validation, merges) turns it into the object's prototype: the data would vanish without a word.
 * One walk with an explicit stack (the depth is bounded above; no recursion).
 */
function protoKeyPath(value: unknown): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: '' }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return path ? `${path}.__proto__` : '__proto__';
    for (const [k, child] of Object.entries(v)) if (child !== null && typeof child === 'object') stack.push({ v: child, path: path ? `${path}.${k}` : k });
  }
  return null;
}

/**
 * The index of the quote closing the string that opens at `open`, or -1. Found with indexOf (a
 * quote is closing when an even number of backslashes precede it): a multi-megabyte string
 * value is skipped at native speed rather than one character at a time.
 */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let k = quote - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((quote - 1 - k) % 2 === 0) return quote;
    from = quote + 1;
  }
}

function malformed(reason: string) {
  return badRequest(`Malformed JSON request body: ${reason}`, { code: 'MALFORMED_JSON', entity: 'body' });
}

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** 415 unless the request declares a JSON media type (or declares none with an empty body). */
export function assertJsonContentType(contentType: string | null, text: string): void {
  if (!contentType) {
    if (text.trim() === '') return;
    // Clients that forget the header but send JSON are common (curl -d); accept JSON-looking text.
    if (/^\s*[[{]/.test(text)) return;
    throw unsupportedMediaType('(none)');
  }
  if (!JSON_TYPE.test(contentType)) throw unsupportedMediaType(contentType);
}

export function unsupportedMediaType(contentType: string) {
  return serviceError(415, {
    message: `Content type '${contentType}' not supported; send application/json`,
    property: 'Content-Type',
    invalidValue: contentType,
  });
}

/** 406 when the Accept header rules out every JSON representation. */
export function acceptsJson(accept: string | null): boolean {
  if (!accept) return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    const q = /;\s*q=([0-9.]+)/.exec(part);
    if (q && Number(q[1]) === 0) return false;
    return (
      type === '*/*' ||
      type === 'application/*' ||
      type === 'application/json' ||
      type === 'application/hal+json' ||
      type.endsWith('+json')
    );
  });
}
