import { describe, expect, it } from 'vitest';
import { REAL_TIME, advanceClock, clockNow, freezeClock, parseDuration, resumeClock, setClock } from '../../src/server/core/clock.js';

describe('durations', () => {
  it.each([
    ['90m', 90 * 60_000],
    ['2h', 7_200_000],
    ['2d', 172_800_000],
    ['1h30m', 5_400_000],
    ['45s', 45_000],
    ['250ms', 250],
    ['1w', 604_800_000],
    ['-15m', -900_000],
    ['1.5h', 5_400_000],
  ])('%s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '2', 'h', '2x', '2 h', 'tomorrow'])('%s is not a duration', (text) => expect(parseDuration(text)).toBeNull());
});

describe('clock state', () => {
  const real = 1_000_000;
  it('runs with real time by default', () => expect(clockNow(REAL_TIME, real)).toBe(real));

  it('set keeps running from the new instant; advance moves it', () => {
    const s = setClock(REAL_TIME, 5_000_000, real);
    expect(clockNow(s, real)).toBe(5_000_000);
    expect(clockNow(s, real + 10)).toBe(5_000_010);
    expect(clockNow(advanceClock(s, 60_000, real), real)).toBe(5_060_000);
  });

  it('freeze stops it; advance moves a frozen clock; resume continues from there', () => {
    const frozen = freezeClock(setClock(REAL_TIME, 5_000_000, real), real);
    expect(clockNow(frozen, real + 999_999)).toBe(5_000_000);
    const moved = advanceClock(frozen, 1_000, real + 5);
    expect(clockNow(moved, real + 500)).toBe(5_001_000);
    const resumed = resumeClock(moved, real + 500);
    expect(clockNow(resumed, real + 600)).toBe(5_001_100);
  });
});
