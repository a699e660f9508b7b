// Fault injection: answers some requests with 429/5xx, delays them, or drops the connection,
// at chosen rates and on chosen routes, so users can test their pipelines' resilience. Faults
// strike before the request is processed: an injected failure never half-applies a change.
// The sandbox's own admin endpoints (/__sandbox) are never faulted.

export type FaultRule =
  | { kind: 'status'; status: number; rate: number; retryAfterSeconds?: number; method?: string; path?: string }
  | { kind: 'latency'; ms: number; rate: number; method?: string; path?: string }
  | { kind: 'drop'; rate: number; method?: string; path?: string };

export type FaultDecision = { kind: 'status'; status: number; retryAfterSeconds?: number } | { kind: 'latency'; ms: number } | { kind: 'drop' };

const STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * Parses a spec such as `429 10%; 503 5%; latency 200ms 30%; drop 1% on POST /v2/content/content-items/*`.
 * A rule is `<429|500|502|503|504|latency <ms>|drop> <rate>% [retry-after <s>] [on [METHOD] <path glob>]`.
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
      if (parts.length === 2) [method, path] = [parts[0]!.toUpperCase(), parts[1]];
      else if (/^[A-Z]+$/i.test(parts[0]!) && !parts[0]!.startsWith('/')) method = parts[0]!.toUpperCase();
      else path = parts[0];
    }
    const target = { method, path };
    if (/^\d{3}$/.test(words[0]!)) {
      const status = Number(words[0]);
      if (!STATUSES.has(status)) throw new Error(`fault '${raw}': status must be one of ${[...STATUSES].join(', ')}`);
      const ra = words.indexOf('retry-after');
      const retryAfterSeconds = ra >= 0 ? Number(words[ra + 1]) : status === 429 || status === 503 ? 1 : undefined;
      if (retryAfterSeconds !== undefined && !(retryAfterSeconds >= 0)) throw new Error(`fault '${raw}': retry-after needs seconds`);
      rules.push({ kind: 'status', status, rate, retryAfterSeconds, ...target });
    } else if (words[0] === 'latency') {
      const m = /^(\d+)(ms|s)$/.exec(words[1] ?? '');
      if (!m) throw new Error(`fault '${raw}': latency needs a delay such as 200ms or 2s`);
      rules.push({ kind: 'latency', ms: Number(m[1]) * (m[2] === 's' ? 1000 : 1), rate, ...target });
    } else if (words[0] === 'drop') {
      rules.push({ kind: 'drop', rate, ...target });
    } else {
      throw new Error(`fault '${raw}': start with a status (429, 500, 502, 503, 504), latency or drop`);
    }
  }
  return rules;
}

function parseRate(word: string | undefined, raw: string): number {
  const n = word ? Number(word.slice(0, -1)) : NaN;
  if (!(n >= 0 && n <= 100)) throw new Error(`fault '${raw}': needs a rate such as 10%`);
  return n / 100;
}

function globMatches(glob: string, path: string): boolean {
  const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`);
  return re.test(path);
}

/** Small seeded generator (mulberry32): a given seed injects the same faults in the same order. */
function random(seed: number): () => number {
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
      if (rule.method && rule.method !== method) return;
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
