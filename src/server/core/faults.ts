// Fault injection: answers some requests with 429/5xx, delays them, or drops the connection,
// at chosen rates and on chosen routes, so users can test their pipelines' resilience. Faults
// strike before the request is processed: an injected failure never half-applies a change.
// The sandbox's own admin endpoints (/__sandbox) are never faulted. A rule that could match no
// request of the service (a method no route answers, a path outside every route) is refused:
// it would silently test nothing.

import { routes, type Method } from './route-table.js';
import { MAX_GLOB_LENGTH, glob } from './glob.js';

export type FaultRule =
  | { kind: 'status'; status: number; rate: number; retryAfterSeconds?: number; method?: string; path?: string }
  | { kind: 'latency'; ms: number; rate: number; method?: string; path?: string }
  | { kind: 'drop'; rate: number; method?: string; path?: string };

export type FaultDecision = { kind: 'status'; status: number; retryAfterSeconds?: number } | { kind: 'latency'; ms: number } | { kind: 'drop' };

const STATUSES = new Set([429, 500, 502, 503, 504]);

/** Bounds on every number a rule holds, the same for the spec text and structured rules. */
export const FAULT_LIMITS = { maxLatencyMs: 60_000, maxRetryAfterSeconds: 86_400, maxGlobLength: 512 } as const;

/**
 * Parses a spec such as `429 10%; 503 5%; latency 200ms 30%; drop 1% on POST /v2/content/**`.
 * A rule is `<429|500|502|503|504|latency <ms>|drop> <rate>% [retry-after <s>] [on [METHOD|*] <path glob>]`;
 * `*` (or no method) is every method. Throws, naming the rule, when one is malformed, out of
 * bounds (checkFaultRule, the check structured rules get too) or can match nothing.
 */
export function parseFaults(spec: string): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const raw of spec.split(';').map((r) => r.trim()).filter(Boolean)) {
    const [head, scope] = raw.split(/\s+on\s+/i) as [string, string | undefined];
    const words = head.split(/\s+/);
    const rate = parseRate(words.find((w) => w.endsWith('%')), raw);
    let method: string | undefined;
    let path: string | undefined;
    if (scope) {
      const parts = scope.trim().split(/\s+/);
      if (parts.length > 2) throw new Error(`fault '${raw}': after 'on' give a method, a path glob, or both`);
      if (parts.length === 2) [method, path] = [parts[0]!.toUpperCase(), parts[1]];
      else if (parts[0] === '*' || (/^[A-Z]+$/i.test(parts[0]!) && !parts[0]!.startsWith('/'))) method = parts[0]!.toUpperCase();
      else path = parts[0];
    }
    if (method === '*') method = undefined;
    const target = { method, path };
    let rule: FaultRule;
    if (/^\d{3}$/.test(words[0]!)) {
      const status = Number(words[0]);
      const ra = words.indexOf('retry-after');
      // Seconds as plain decimals: `1e308`, `Infinity` and `-1` are not. Fractions (at most 3
      // places) keep test suites fast; the header carries them as written.
      if (ra >= 0 && !/^\d{1,6}(\.\d{1,3})?$/.test(words[ra + 1] ?? '')) throw new Error(`fault '${raw}': retry-after needs seconds such as 1 or 0.05 (0-${FAULT_LIMITS.maxRetryAfterSeconds})`);
      const retryAfterSeconds = ra >= 0 ? Number(words[ra + 1]) : status === 429 || status === 503 ? 1 : undefined;
      rule = { kind: 'status', status, rate, retryAfterSeconds, ...target };
    } else if (words[0] === 'latency') {
      const m = /^(\d{1,9})(ms|s)$/.exec(words[1] ?? '');
      if (!m) throw new Error(`fault '${raw}': latency needs a delay such as 200ms or 2s (at most ${FAULT_LIMITS.maxLatencyMs / 1000}s)`);
      rule = { kind: 'latency', ms: Number(m[1]) * (m[2] === 's' ? 1000 : 1), rate, ...target };
    } else if (words[0] === 'drop') {
      rule = { kind: 'drop', rate, ...target };
    } else {
      throw new Error(`fault '${raw}': start with a status (429, 500, 502, 503, 504), latency or drop`);
    }
    const problem = checkFaultRule(rule);
    if (problem) throw new Error(`fault '${raw}': ${problem}`);
    rules.push(rule);
  }
  return rules;
}

/**
 * What is wrong with one rule, or null: the one check of the spec text and the structured rules
 * (`PUT /__sandbox/faults`). Every number is finite and bounded, the glob short, and the rule
 * able to match some request of the service.
 */
export function checkFaultRule(rule: FaultRule): string | null {
  if (!(Number.isFinite(rule.rate) && rule.rate >= 0 && rule.rate <= 1)) return 'the rate must be between 0% and 100%';
  if (rule.path !== undefined && (typeof rule.path !== 'string' || rule.path.length > FAULT_LIMITS.maxGlobLength)) return `the path glob must be at most ${FAULT_LIMITS.maxGlobLength} characters`;
  if (rule.kind === 'status') {
    if (!STATUSES.has(rule.status)) return `status must be one of ${[...STATUSES].join(', ')}`;
    const ra = rule.retryAfterSeconds;
    if (ra !== undefined && !(typeof ra === 'number' && Number.isFinite(ra) && ra >= 0 && ra <= FAULT_LIMITS.maxRetryAfterSeconds && Math.round(ra * 1000) === ra * 1000)) return `retry-after must be seconds between 0 and ${FAULT_LIMITS.maxRetryAfterSeconds}, at most 3 decimal places`;
  } else if (rule.kind === 'latency') {
    if (!(Number.isInteger(rule.ms) && rule.ms >= 0 && rule.ms <= FAULT_LIMITS.maxLatencyMs)) return `latency must be between 0 and ${FAULT_LIMITS.maxLatencyMs / 1000}s`;
  } else if (rule.kind !== 'drop') {
    return 'kind must be status, latency or drop';
  }
  return whyUnmatched(rule);
}

/** The first problem of a list of rules, with the rule's index, or null. */
export function checkFaultRules(rules: FaultRule[]): { index: number; message: string } | null {
  for (const [index, rule] of rules.entries()) {
    const message = checkFaultRule(rule);
    if (message) return { index, message };
  }
  return null;
}

function parseRate(word: string | undefined, raw: string): number {
  // Digits only: `1e2%` is not a rate.
  const n = word && /^\d{1,3}(\.\d{1,6})?%$/.test(word) ? Number(word.slice(0, -1)) : NaN;
  if (!(n >= 0 && n <= 100)) throw new Error(`fault '${raw}': needs a rate such as 10%`);
  return n / 100;
}

const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/**
 * Why a rule's method and path glob can match no request the service answers, or null. The
 * glob is compared with every route's path segment by segment (a `:param` takes any segment,
 * a `**` any number of them), so a glob that names a real id still matches its route.
 */
export function whyUnmatched({ method, path }: { method?: string; path?: string }): string | null {
  if (method !== undefined && method !== '*' && !METHODS.includes(method as Method)) {
    return `no operation answers method ${method}; use ${METHODS.join(', ')} or * (every method)`;
  }
  if (path === undefined) return null;
  if (!path.startsWith('/')) return `the path glob '${path}' must start with / (e.g. /v2/content/**)`;
  if (path.length > MAX_GLOB_LENGTH) return `the path glob is longer than ${MAX_GLOB_LENGTH} characters`;
  if (path === '/__sandbox' || path.startsWith('/__sandbox/')) return 'requests under /__sandbox are never faulted';
  const candidates = routes.filter((r) => !r.path.startsWith('/__sandbox') && (method === undefined || method === '*' || r.method === method));
  if (candidates.some((r) => segmentsMatch(path.split('/').slice(1), r.path.split('/').slice(1)))) return null;
  return `no operation of the service matches ${method && method !== '*' ? `${method} ` : ''}${path} (API paths start with /v2/content/, e.g. /v2/content/content-items/*)`;
}

/** Whether some path of a route (segments, `:param` any non-empty one) can match the glob's segments. */
function segmentsMatch(glob: string[], route: string[]): boolean {
  const seen = new Set<string>();
  const from = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if (i === glob.length) return j === route.length;
    const g = glob[i]!;
    // `**` spans slashes: any number of route segments (an over-estimate inside a segment is fine).
    if (g.includes('**')) return from(i + 1, j) || (j < route.length && from(i, j + 1));
    if (j === route.length) return false;
    const r = route[j]!;
    return (r.startsWith(':') ? g !== '' : globMatches(g, r)) && from(i + 1, j + 1);
  };
  return from(0, 0);
}

/** Whether a fault rule's glob matches a path: `*` and `**` only (`?` is itself), in linear time (issue 24.8). */
const globMatches = (pattern: string, path: string) => glob(pattern, { questionMark: false }).matches(path);

/** Small seeded generator (mulberry32): a given seed injects the same faults in the same order. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private rules: FaultRule[] = [];
  private next: () => number;
  /** How many times each rule struck, by its index. */
  private counts: number[] = [];
  private requests = 0;

  constructor(seed = Date.now()) {
    this.next = random(seed);
  }

  configure(rules: FaultRule[], seed?: number): void {
    // Each glob compiled now: one too long for the matcher is refused here, not on a request.
    for (const rule of rules) if (rule.path !== undefined) glob(rule.path, { questionMark: false });
    this.rules = rules;
    this.counts = rules.map(() => 0);
    this.requests = 0;
    if (seed !== undefined) this.next = random(seed);
  }

  /** The faults for one request: at most one failure (status or drop), latency may add to it. */
  decide(method: string, path: string): FaultDecision[] {
    if (!this.rules.length || path.startsWith('/__sandbox')) return [];
    this.requests++;
    const out: FaultDecision[] = [];
    let failed = false;
    this.rules.forEach((rule, i) => {
      if (rule.method && rule.method !== '*' && rule.method !== method) return;
      if (rule.path && !globMatches(rule.path, path)) return;
      if (rule.kind !== 'latency' && failed) return;
      if (this.next() >= rule.rate) return;
      this.counts[i]!++;
      if (rule.kind === 'latency') out.push({ kind: 'latency', ms: rule.ms });
      else {
        failed = true;
        out.push(rule.kind === 'drop' ? { kind: 'drop' } : { kind: 'status', status: rule.status, retryAfterSeconds: rule.retryAfterSeconds });
      }
    });
    return out;
  }

  report() {
    return { requests: this.requests, rules: this.rules.map((rule, i) => ({ ...rule, injected: this.counts[i] })) };
  }
}
