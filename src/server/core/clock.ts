// The sandbox clock. Real time unless set: an offset from real time, or frozen at an instant.
// The state lives in the database so every process on the same data directory (the CLI, a
// running `cms sandbox serve`) shares one clock.

export interface ClockState {
  offsetMs: number;
  frozenAt: number | null;
}

export const REAL_TIME: ClockState = { offsetMs: 0, frozenAt: null };

export interface Clock {
  now(): number;
}

export function clockNow(state: ClockState, realNow = Date.now()): number {
  return state.frozenAt ?? realNow + state.offsetMs;
}

export function setClock(state: ClockState, at: number, realNow = Date.now()): ClockState {
  return state.frozenAt !== null ? { offsetMs: 0, frozenAt: at } : { offsetMs: at - realNow, frozenAt: null };
}

export function advanceClock(state: ClockState, ms: number, realNow = Date.now()): ClockState {
  return setClock(state, clockNow(state, realNow) + ms, realNow);
}

export function freezeClock(state: ClockState, realNow = Date.now()): ClockState {
  return { offsetMs: 0, frozenAt: clockNow(state, realNow) };
}

export function resumeClock(state: ClockState, realNow = Date.now()): ClockState {
  return state.frozenAt === null ? state : { offsetMs: state.frozenAt - realNow, frozenAt: null };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses durations such as `90m`, `2h`, `2d`, `1h30m`, `-15m`. Returns milliseconds or null. */
export function parseDuration(text: string): number | null {
  const m = /^(-)?((?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+)$/.exec(text.trim());
  if (!m) return null;
  let total = 0;
  for (const part of m[2]!.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(part[1]) * UNIT_MS[part[2]!]!;
  return m[1] ? -total : total;
}
