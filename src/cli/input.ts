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
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path === '-' ? 'Standard input' : path} is not valid JSON: ${(err as Error).message}`);
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
