// Test-only: CMS_TEST_KILL_AT=<kind>:<n>[:before|after] kills this process with SIGKILL around
// the nth write of that kind of a run (create, update, archive, unarchive, restore, ...):
// `before` once its intent is journaled and nothing is sent, `after` once the service answered
// and before the result is journaled. Crash tests use it to hit the windows a kill -9 can find.

interface KillAt {
  kind: string;
  n: number;
  phase: 'before' | 'after';
}

const spec = parse(process.env.CMS_TEST_KILL_AT);
const seen = new Map<string, number>();
let armed: string | undefined;

function parse(value: string | undefined): KillAt | undefined {
  const m = value ? /^([\w-]+):(\d+)(?::(before|after))?$/.exec(value) : null;
  return m ? { kind: m[1]!, n: Number(m[2]), phase: (m[3] as KillAt['phase']) ?? 'after' } : undefined;
}

const kill = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

/** A write's intent was journaled; the write is about to be sent. */
export function beforeWrite(kind: string, key: string): void {
  if (!spec || spec.kind !== kind) return;
  const n = (seen.get(kind) ?? 0) + 1;
  seen.set(kind, n);
  if (n !== spec.n) return;
  if (spec.phase === 'before') kill();
  armed = key;
}

/** A write's result is about to be journaled. */
export function afterWrite(key: string): void {
  if (armed !== undefined && armed === key) kill();
}
