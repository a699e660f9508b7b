import { readFileSync } from 'node:fs';
import { UsageError } from '../core/errors.js';

/** Reads a JSON file (or stdin for '-'); a clear usage error names the file and the problem. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${path === '-' ? 'standard input' : path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  return parseJsonText(text, path === '-' ? 'Standard input' : path);
}

/** JSON.parse with an error that says where: `<name> is not valid JSON at line 3, column 3: ...`. */
export function parseJsonText(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = (err as Error).message.replace(/ in JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/s, '');
    const at = jsonErrorOffset(text);
    if (at < 0) throw new UsageError(`${name} is not valid JSON: ${reason}`);
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    // Line and column only: the file's own text is not echoed (it may hold secrets).
    throw new UsageError(`${name} is not valid JSON at line ${line}, column ${column}: ${reason}`);
  }
}

/** Where the first JSON syntax error is (a small scanner: V8's messages do not always say). */
function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i]! < ' ') fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const open = text[i];
    if (open === '{' || open === '[') {
      const close = open === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (open === '{') {
          ws();
          if (text[i] !== '"') fail();
          string();
          ws();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else fail();
      }
    }
    if (open === '"') return string();
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (at) {
    if (typeof at !== 'number') throw at;
    return at;
  }
}

export function readJsonObject(path: string): Record<string, unknown> {
  const value = readJsonFile(path);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${path} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * Applies `--set path=value` edits: the path is dotted with optional [n] indexes
 * (body.items[0].title); the value is parsed as JSON when it is valid JSON, else taken as text.
 */
export function applySets(target: Record<string, unknown>, sets: readonly string[] = []): Record<string, unknown> {
  for (const assignment of sets) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set needs path=value, got '${assignment}'`);
    const path = parsePath(assignment.slice(0, eq));
    setPath(target, path, parseValue(assignment.slice(eq + 1)));
  }
  return target;
}

export function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function parsePath(text: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const segment of text.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(segment);
    if (!m || (!m[1] && !m[2])) throw new UsageError(`'${text}' is not a field path such as body.title or body.items[0].name`);
    if (m[1]) parts.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) parts.push(Number(idx[1]));
  }
  return parts;
}

function setPath(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: any = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') node[key] = nextIsIndex ? [] : {};
    node = node[key];
  }
  node[path[path.length - 1]!] = value;
}

/** A body from --body-file (or {}), then flag fields, then --set edits. Undefined flags are skipped. */
export function buildBody(opts: { bodyFile?: string; set?: string[] }, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const body = opts.bodyFile ? readJsonObject(opts.bodyFile) : {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body[k] = v;
  return applySets(body, opts.set);
}

/** Splits comma lists given once or repeatedly: --permission READ,EDIT --permission SHARE. */
export function commaList(values: string | readonly string[] | undefined): string[] {
  if (values === undefined) return [];
  return (Array.isArray(values) ? values : [values]).flatMap((v: string) => v.split(',')).map((s: string) => s.trim()).filter(Boolean);
}
