import { createReadStream, readFileSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { parseJson } from '../ops/files/safe-files.js';

/** Standard input is read whole into memory: refuse more than this. */
export const STDIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** The option that consumed standard input: a second reader would get nothing. */
let stdinReader: string | null = null;

/**
 * The one way to read standard input (`--input -`, `--body-file -`, `--file -`, `*-stdin`):
 * as a stream up to its end, so data that arrives late or in pieces is all read (a synchronous
 * read of a pipe fails with EAGAIN when the producer is slower than us).
 */
export async function readStdin(option: string, stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  if (stdinReader) throw new UsageError(`Standard input is already read for ${stdinReader}; give ${option} another way`);
  stdinReader = option;
  return readCapped(stream, `Standard input for ${option}`, 'Give a file instead of a pipe.');
}

/** A stream read to its end, refusing more than STDIN_LIMIT_BYTES. */
async function readCapped(stream: NodeJS.ReadableStream, what: string, hint?: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > STDIN_LIMIT_BYTES) {
        (stream as NodeJS.ReadStream).destroy?.();
        throw new UsageError(`${what} is larger than ${STDIN_LIMIT_BYTES / 1024 / 1024} MiB`, hint);
      }
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${what}: ${(err as Error).message}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A secret from standard input (`--secret-stdin`): one line, surrounding blanks dropped; never empty. */
export async function readSecretStdin(option: string): Promise<string> {
  const secret = (await readStdin(option)).trim();
  if (!secret) throw new UsageError(`No secret on standard input for ${option}`);
  return secret;
}

/** A secret given either as a flag or on standard input, not both. */
export async function secretOption(flag: string | undefined, fromStdin: boolean | undefined, names: { flag: string; stdin: string }): Promise<string | undefined> {
  if (flag !== undefined && fromStdin) throw new UsageError(`Give ${names.flag} or ${names.stdin}, not both`);
  return fromStdin ? readSecretStdin(names.stdin) : flag;
}

/**
 * A file's text, or standard input for '-'; a clear usage error names the file. The user named
 * it, so a symlink or a FIFO (`--body-file <(jq ...)`) is fine, but its size is capped like stdin.
 */
export async function readTextFile(path: string, option: string): Promise<string> {
  if (path === '-') return readStdin(option);
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new UsageError(`Cannot read ${path}: it is a directory`);
    if (st.isFile() && st.size > STDIN_LIMIT_BYTES) throw new UsageError(`${path} is larger than ${STDIN_LIMIT_BYTES / 1024 / 1024} MiB`);
    if (st.isFile()) return readFileSync(path, 'utf8');
    return await readCapped(createReadStream(path), path);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

/** Reads a JSON file (or stdin for '-'); a clear usage error names the file, the line and the column. */
export async function readJsonFile(path: string, option = '--file'): Promise<unknown> {
  const text = await readTextFile(path, option);
  return parseJson(text, path === '-' ? 'Standard input' : path);
}

export async function readJsonObject(path: string, option = '--body-file'): Promise<Record<string, unknown>> {
  const value = await readJsonFile(path, option);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${path} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * Applies `--set path=value` edits: the path is dotted with optional [n] indexes
 * (body.items[0].title); the value is parsed as JSON when it is valid JSON, else taken as text.
 * `--set-string path=value` edits take the value as text always (body.title=42 stays "42").
 */
export function applySets(target: Record<string, unknown>, sets: readonly string[] = [], strings: readonly string[] = []): Record<string, unknown> {
  for (const [list, option, parse] of [[sets, '--set', parseValue], [strings, '--set-string', (raw: string) => raw]] as const) {
    for (const assignment of list) {
      const eq = assignment.indexOf('=');
      if (eq <= 0) throw new UsageError(`${option} needs path=value, got '${assignment}'`);
      setPath(target, parsePath(assignment.slice(0, eq)), parse(assignment.slice(eq + 1)));
    }
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

/**
 * A body from --body-file (or {}), then flag fields, then --set edits. Undefined flags are skipped.
 * `required` fields (the flags marked `inBody` in the verb's options) must be in the result,
 * whichever way they came: a usage error names the missing flags before any request.
 */
export async function buildBody(opts: { bodyFile?: string; set?: string[]; setString?: string[] }, fields: Record<string, unknown> = {}, required: readonly string[] = []): Promise<Record<string, unknown>> {
  const body = opts.bodyFile ? await readJsonObject(opts.bodyFile) : {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body[k] = v;
  return requireFields(applySets(body, opts.set, opts.setString), required);
}

/** Fields a body needs, whether from flags, --body-file or --set: a usage error names the flags of those missing. */
export function requireFields(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const missing = fields.filter((f) => body[f] === undefined || body[f] === null || body[f] === '');
  if (missing.length) {
    const flags = missing.map((f) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new UsageError(`Missing required option${missing.length > 1 ? 's' : ''}: ${flags.join(', ')}`, `Give ${missing.length > 1 ? 'them' : 'it'} as ${missing.length > 1 ? 'flags' : 'a flag'}, in --body-file or with --set ${missing[0]}=<value>.`);
  }
  return body;
}

/** Splits comma lists given once or repeatedly: --permission READ,EDIT --permission SHARE. */
export function commaList(values: string | readonly string[] | undefined): string[] {
  if (values === undefined) return [];
  return (Array.isArray(values) ? values : [values]).flatMap((v: string) => v.split(',')).map((s: string) => s.trim()).filter(Boolean);
}
