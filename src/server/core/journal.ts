// The request journal: what the sandbox answered (time, client, method, path, status, duration,
// fault applied), so a test can ask "was this called, how often" (GET /__sandbox/requests,
// POST /__sandbox/requests/verify, cms sandbox requests), as WireMock's request journal does.
//
// In memory, with a bound (a ring of `capacity` entries), not in SQLite: it observes one running
// sandbox, is cheap enough to write on every request (a row per read would turn every read into
// a write), and must not travel with snapshots, exports or a data directory another process
// opens. Every entry is redacted when recorded: no header is kept, and body fields, query
// parameters and form fields whose name says secret (secret, password, token, authorization,
// credentials, api key...) and anything shaped like a bearer token are replaced by [redacted].

import { glob, MAX_GLOB_LENGTH } from './glob.js';
import { badRequest } from './errors.js';
import { REDACTED, isSecretKey, isSecretParam, redact, redactQuery as redactUrls, redactText as redactFields } from '../../core/redact.js';

export { REDACTED };

export const DEFAULT_JOURNAL_SIZE = 1000;
/** Bodies up to this size are redacted and kept (a prefix of them) for bodyContains; larger ones are not kept. */
const MAX_BODY_PARSE = 64 * 1024;
const MAX_BODY_KEPT = 8 * 1024;
const MAX_PATH_KEPT = 2048;
/** Most entries one query or verify answer lists. */
export const MAX_JOURNAL_PAGE = 1000;

export interface JournalEntry {
  /** Increasing; `after` pages and follows by it. */
  id: number;
  /** When the request arrived (wall-clock time, not the sandbox clock). */
  time: string;
  /** The client the request authenticated as (the client_id asked for at the token endpoint); null when none. */
  clientId: string | null;
  method: string;
  path: string;
  /** The query string, redacted ('' when none). */
  query: string;
  /** null: the connection was dropped (an injected drop, or the client left). */
  status: number | null;
  durationMs: number;
  /** The fault injected into it: '503', 'latency 200ms', 'drop' (several joined by ', '); null when none. */
  fault: string | null;
  /** The operation that answered it (`items.create`); null when no route matched. */
  op: string | null;
  /** The request body, redacted and cut to 8 KiB; absent when there was none or it was not read. */
  body?: string;
  bodyTruncated?: true;
}

/** What the service reports of one request once it is answered. */
export interface Answered {
  startedAt: number;
  method: string;
  path: string;
  search: string;
  status: number | null;
  durationMs: number;
  fault: string | null;
  clientId: string | null;
  op: string | null;
  bodyText?: string;
  contentType?: string | null;
}

/** The query parameters a journal filter reads (parseJournalFilter). */
export const JOURNAL_FILTER_NAMES = ['method', 'path', 'status', 'clientId', 'fault', 'after', 'limit', 'order'] as const;

export interface JournalFilter {
  method?: string;
  /** A path glob (`/v2/content/content-items/*`). */
  path?: string;
  /** An exact status (`404`), a class (`4xx`), or `dropped`. */
  status?: string;
  clientId?: string;
  /** Only faulted requests (true) or only others (false). */
  fault?: boolean;
  /** Entries after this id (paging, following). */
  after?: number;
  /** At most this many (default and most: 1000); the oldest first. */
  limit?: number;
  /** The newest `last` matching entries instead (still oldest first): what a console shows. */
  last?: boolean;
}

export interface JournalPage {
  requests: JournalEntry[];
  /** Pass as `after` for the next page (the last id seen, or `after` when nothing new). */
  next: number;
  /** Entries the bound pushed out since the last reset: a follower that falls this far behind missed some. */
  evicted: number;
  /** The oldest id still held, null when empty. */
  oldestId: number | null;
}

export interface VerifySpec {
  method?: string;
  path: string;
  bodyContains?: string;
  /** Exactly this many; or a range; absent: at least one. */
  count?: number | { atLeast?: number; atMost?: number };
}

export interface VerifyResult {
  ok: boolean;
  matched: number;
  expected: string;
  /** Matching entries (up to 10), newest last. */
  matches: JournalEntry[];
  /** The entries closest to the spec that did not match it (up to 5), closest first, each with what differed. */
  nearMisses: { request: JournalEntry; differences: string[] }[];
}

export class RequestJournal {
  private ring: (JournalEntry | undefined)[];
  private start = 0;
  private size = 0;
  private nextId = 1;
  private evictedCount = 0;
  /** Bumped by clear(): a request that began before a reset is not recorded after it. */
  private generation = 0;

  constructor(readonly capacity = DEFAULT_JOURNAL_SIZE) {
    this.ring = new Array(Math.max(1, capacity));
  }

  /** Taken when a request arrives; record() drops the entry if a reset came in between. */
  mark(): number {
    return this.generation;
  }

  record(a: Answered, mark: number): void {
    if (mark !== this.generation) return;
    const entry: JournalEntry = {
      id: this.nextId++,
      time: new Date(a.startedAt).toISOString(),
      clientId: a.clientId === null ? null : keptOrRedacted(redactText(a.clientId), REDACTED),
      method: a.method,
      path: cut(redactText(a.path), MAX_PATH_KEPT),
      query: cut(redactQuery(a.search), MAX_PATH_KEPT),
      status: a.status,
      durationMs: Math.round(a.durationMs * 10) / 10,
      fault: a.fault,
      op: a.op,
    };
    if (a.bodyText) {
      const body = redactBody(a.bodyText, a.contentType ?? null);
      if (body.length > MAX_BODY_KEPT) {
        entry.body = body.slice(0, MAX_BODY_KEPT);
        entry.bodyTruncated = true;
      } else entry.body = body;
    }
    const cap = this.ring.length;
    if (this.size < cap) {
      this.ring[(this.start + this.size) % cap] = entry;
      this.size++;
    } else {
      this.ring[this.start] = entry;
      this.start = (this.start + 1) % cap;
      this.evictedCount++;
    }
  }

  clear(): void {
    this.ring = new Array(this.ring.length);
    this.start = 0;
    this.size = 0;
    this.evictedCount = 0;
    this.generation++;
  }

  private *entries(): Generator<JournalEntry> {
    for (let i = 0; i < this.size; i++) yield this.ring[(this.start + i) % this.ring.length]!;
  }

  /** Entries matching the filter, oldest first, after `after`, at most `limit`. */
  query(filter: JournalFilter = {}): JournalPage {
    const limit = Math.min(Math.max(filter.limit ?? MAX_JOURNAL_PAGE, 1), MAX_JOURNAL_PAGE);
    const test = matcher(filter);
    const out: JournalEntry[] = [];
    if (filter.last) {
      for (let i = this.size - 1; i >= 0 && out.length < limit; i--) {
        const e = this.ring[(this.start + i) % this.ring.length]!;
        if (filter.after !== undefined && e.id <= filter.after) break;
        if (test(e)) out.push(e);
      }
      out.reverse();
    } else {
      for (const e of this.entries()) {
        if (filter.after !== undefined && e.id <= filter.after) continue;
        if (!test(e)) continue;
        out.push(e);
        if (out.length >= limit) break;
      }
    }
    const first = this.size ? this.ring[this.start]!.id : null;
    return { requests: out, next: out.length ? out[out.length - 1]!.id : (filter.after ?? 0), evicted: this.evictedCount, oldestId: first };
  }

  /** Whether the journal holds the expected number of requests like the spec, and, if not, the nearest others. */
  verify(spec: VerifySpec): VerifyResult {
    const pathGlob = glob(spec.path);
    const method = spec.method && spec.method !== '*' ? spec.method.toUpperCase() : undefined;
    const matches: JournalEntry[] = [];
    let matched = 0;
    const misses: { request: JournalEntry; differences: string[]; score: number }[] = [];
    // Paths repeat: each distinct one is matched against the glob once.
    const pathResult = new Map<string, boolean>();
    for (const e of this.entries()) {
      let pathOk = pathResult.get(e.path);
      if (pathOk === undefined) pathResult.set(e.path, (pathOk = pathGlob.matches(e.path)));
      const differences: string[] = [];
      let score = 0;
      if (method && e.method !== method) (differences.push(`method ${e.method}, not ${method}`), (score += 1));
      if (!pathOk) (differences.push(`path ${e.path} does not match ${spec.path}`), (score += pathDistance(spec.path, e.path)));
      if (spec.bodyContains !== undefined && !(e.body ?? '').includes(spec.bodyContains)) {
        differences.push(e.body === undefined ? 'no body was kept' : `body does not contain ${JSON.stringify(cut(spec.bodyContains, 80))}`);
        score += 1;
      }
      if (!differences.length) {
        matched++;
        matches.push(e);
        if (matches.length > 10) matches.shift();
      } else {
        misses.push({ request: e, differences, score });
        // Keep the closest few only: the journal may hold thousands.
        if (misses.length > 20) {
          misses.sort((a, b) => a.score - b.score || b.request.id - a.request.id);
          misses.length = 5;
        }
      }
    }
    misses.sort((a, b) => a.score - b.score || b.request.id - a.request.id);
    const { ok, expected } = countCheck(spec.count, matched);
    return { ok, matched, expected, matches, nearMisses: misses.slice(0, 5).map(({ request, differences }) => ({ request, differences })) };
  }
}

function countCheck(count: VerifySpec['count'], n: number): { ok: boolean; expected: string } {
  if (count === undefined) return { ok: n >= 1, expected: 'at least 1' };
  if (typeof count === 'number') return { ok: n === count, expected: `exactly ${count}` };
  const { atLeast, atMost } = count;
  const ok = (atLeast === undefined || n >= atLeast) && (atMost === undefined || n <= atMost);
  const expected = atLeast !== undefined && atMost !== undefined ? `between ${atLeast} and ${atMost}` : atLeast !== undefined ? `at least ${atLeast}` : `at most ${atMost}`;
  return { ok, expected };
}

/** How far a path is from a glob: the share of segments that differ (0..1), a cheap and bounded measure. */
function pathDistance(pattern: string, path: string): number {
  const g = pattern.split('/');
  const p = path.split('/');
  const n = Math.max(g.length, p.length);
  if (g.includes('**')) return 0.5;
  let differ = 0;
  for (let i = 0; i < n; i++) if (g[i] === undefined || p[i] === undefined || !glob(g[i]!).matches(p[i]!)) differ++;
  return differ / n;
}

/**
 * The journal filter of query parameters (GET /__sandbox/requests, and in process the programmatic
 * API's requests()): one reading for both. A malformed value is a 400 naming it.
 */
export function parseJournalFilter(param: (name: string) => string | null): JournalFilter {
  const f: JournalFilter = {};
  const method = param('method');
  if (method !== null) {
    if (!/^([A-Za-z]{1,16}|\*)$/.test(method)) throw badRequest('method must be an HTTP method or *', { property: 'method', invalidValue: method });
    f.method = method;
  }
  const path = param('path');
  if (path !== null) {
    if (!path.startsWith('/') || path.length > MAX_GLOB_LENGTH) throw badRequest(`path must be a glob starting with / (at most ${MAX_GLOB_LENGTH} characters)`, { property: 'path', invalidValue: path.slice(0, 200) });
    f.path = path;
  }
  const status = param('status');
  if (status !== null) {
    if (!/^(\d{3}|[1-5]xx|dropped)$/i.test(status)) throw badRequest('status must be a status (404), a class (4xx) or dropped', { property: 'status', invalidValue: status.slice(0, 200) });
    f.status = status;
  }
  const clientId = param('clientId');
  if (clientId !== null) f.clientId = clientId;
  const fault = param('fault');
  if (fault !== null) {
    if (fault !== 'true' && fault !== 'false') throw badRequest('fault must be true or false', { property: 'fault', invalidValue: fault.slice(0, 200) });
    f.fault = fault === 'true';
  }
  const after = param('after');
  if (after !== null) {
    if (!/^\d{1,15}$/.test(after)) throw badRequest('after must be a request id (a whole number)', { property: 'after', invalidValue: after.slice(0, 200) });
    f.after = Number(after);
  }
  const limit = param('limit');
  if (limit !== null) {
    if (!/^\d{1,7}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_JOURNAL_PAGE) throw badRequest(`limit must be between 1 and ${MAX_JOURNAL_PAGE}`, { property: 'limit', invalidValue: limit.slice(0, 200) });
    f.limit = Number(limit);
  }
  const order = param('order');
  if (order !== null) {
    if (order !== 'newest' && order !== 'oldest') throw badRequest('order must be oldest (the first requests, default) or newest (the last ones)', { property: 'order', invalidValue: order.slice(0, 200) });
    f.last = order === 'newest';
  }
  return f;
}

function matcher(f: JournalFilter): (e: JournalEntry) => boolean {
  const method = f.method && f.method !== '*' ? f.method.toUpperCase() : undefined;
  const path = f.path ? glob(f.path) : undefined;
  const status = f.status?.toLowerCase();
  return (e) => {
    if (method && e.method !== method) return false;
    if (path && !path.matches(e.path)) return false;
    if (f.clientId !== undefined && e.clientId !== f.clientId) return false;
    if (f.fault !== undefined && (e.fault !== null) !== f.fault) return false;
    if (status) {
      if (status === 'dropped') return e.status === null;
      if (e.status === null) return false;
      if (/^[1-5]xx$/.test(status)) return Math.floor(e.status / 100) === Number(status[0]);
      return String(e.status) === status;
    }
    return true;
  };
}

/**
 * Text with every token-shaped word replaced: a bearer token (the sandbox's and the vendor's are
 * JWTs) is three or more dot-separated base64url parts. Linear: each run of token characters is
 * found once and split, never backtracked over.
 */
export function redactText(text: string): string {
  if (text.length < 26) return text;
  return text.replace(/[A-Za-z0-9_.-]{26,}/g, (run) => (tokenShaped(run) ? REDACTED : run));
}

function tokenShaped(run: string): boolean {
  let long = 0;
  for (const part of run.split('.')) {
    long = part.length >= 8 ? long + 1 : 0;
    if (long === 3) return true;
  }
  return false;
}

/** `?a=1&client_secret=…` with secret-named parameters' values redacted (the names as the CLI's redaction knows them). */
export function redactQuery(search: string): string {
  if (!search || search === '?') return '';
  const params = new URLSearchParams(search);
  let changed = false;
  for (const [k] of params) {
    if (isSecretParam(k)) {
      params.set(k, REDACTED);
      changed = true;
    }
  }
  return redactText(changed ? `?${params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}` : search);
}

/**
 * A request body with secret fields redacted: JSON through the CLI's own redaction (core/redact.ts:
 * secret-named keys, {key, value, secret: true} entries, credentials objects whole, the secret
 * query parameters of URLs in it), form fields by name, and token-shaped text anywhere. Text
 * redacted by pattern only (JSON cut short, a form with fields after ; or a line break, multipart,
 * YAML, XML: nothing the sandbox parses) is kept only when no secret's name is left in it: a
 * pattern cannot see every way of writing one. What cannot be redacted is not kept.
 */
export function redactBody(text: string, contentType: string | null): string {
  if (text.length > MAX_BODY_PARSE) return `[${text.length} characters, not kept]`;
  try {
    const trimmed = text.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        const out = redactText(redactFields(text));
        return keptOrRedacted(out, NOT_KEPT, true);
      }
      // Nesting too deep to walk throws: not kept.
      return redactText(redactUrls(JSON.stringify(redact(parsed))));
    }
    if (contentType?.toLowerCase().includes('x-www-form-urlencoded') || /^[\w.%-]+=[^&]*(&[\w.%-]+=[^&]*)*$/.test(trimmed)) {
      // URLSearchParams splits at & only: `a=1;client_secret=x` is one field whose value names a secret.
      return keptOrRedacted(redactQuery(`?${trimmed}`).slice(1), NOT_KEPT);
    }
    return keptOrRedacted(redactText(redactFields(text)), NOT_KEPT, true);
  } catch {
    return NOT_KEPT;
  }
}

const NOT_KEPT = '[body not kept: it could not be redacted]';

/** `out` (redacted text), or `instead` when what is left of it still names a secret. */
function keptOrRedacted(out: string, instead: string, anyMention = false): string {
  const left = secretsLeft(out);
  return left.assigned || (anyMention && isSecretKey(left.rest)) ? instead : out;
}

/**
 * What redacted text still says of secrets, in one pass over its words (JSON's \uXXXX and URL %XX
 * escapes undone first, so a name spelled with them is seen): `assigned`, a secret's name given a
 * value other than [redacted] (`a=1;client_secret=x`, `secret: x`); `rest`, the words but the
 * pairs already redacted (for a name anywhere: a multipart field's name="client_secret", <secret>).
 */
function secretsLeft(text: string): { assigned: boolean; rest: string } {
  const words = unescape(text).split(/[\s&;?"'<>,{}()]+/).filter(Boolean);
  const rest: string[] = [];
  let assigned = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const at = word.search(/[=:]/);
    if (at < 0) {
      // A name whose `:` or `=` is the next word ("secret" : "x").
      if (/^[=:]/.test(words[i + 1] ?? '') && isSecretParam(word)) {
        const value = words[i + 1]!.length > 1 ? words[i + 1]!.slice(1) : words[i + 2];
        if (value === REDACTED || value === undefined) {
          i += words[i + 1]!.length > 1 ? 1 : 2;
          continue;
        }
        assigned = true;
      }
      rest.push(word);
      continue;
    }
    const name = word.slice(0, at);
    const value = word.length > at + 1 ? word.slice(at + 1) : words[i + 1];
    if (name && isSecretParam(name)) {
      if (value === REDACTED || value === undefined) {
        if (word.length === at + 1) i++;
        continue;
      }
      assigned = true;
    }
    rest.push(word);
  }
  return { assigned, rest: rest.join(' ') };
}

function unescape(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
