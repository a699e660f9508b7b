import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localStamp, parseDateInput } from '../../src/cli/dates.js';

describe('date flags: now, today/tomorrow at a time, durations, local and zoned date-times', () => {
  const before = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Europe/Paris';
  });
  afterEach(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
  const now = Date.parse('2026-11-25T13:30:00Z'); // 14:30 in Paris

  it('now and durations are relative to the service now', () => {
    expect(parseDateInput('now', now)).toBe(now);
    expect(parseDateInput('+2h', now)).toBe(now + 2 * 3600_000);
    expect(parseDateInput('-26h', now)).toBe(now - 26 * 3600_000);
    expect(parseDateInput('\u221226h', now)).toBe(now - 26 * 3600_000);
  });

  it('today and tomorrow are local days', () => {
    expect(new Date(parseDateInput('today 09:00', now)!).toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(new Date(parseDateInput('tomorrow 09:00', now)!).toISOString()).toBe('2026-11-26T08:00:00.000Z');
    expect(new Date(parseDateInput('tomorrow', now)!).toISOString()).toBe('2026-11-25T23:00:00.000Z');
    expect(parseDateInput('today 25:00', now)).toBeNull();
  });

  it('a date-time without an offset is local; with one it is exact', () => {
    expect(new Date(parseDateInput('2026-12-24T09:00', now)!).toISOString()).toBe('2026-12-24T08:00:00.000Z');
    expect(new Date(parseDateInput('2026-12-24 09:00:00', now)!).toISOString()).toBe('2026-12-24T08:00:00.000Z');
    expect(new Date(parseDateInput('2026-12-24T09:00:00Z', now)!).toISOString()).toBe('2026-12-24T09:00:00.000Z');
    expect(new Date(parseDateInput('2026-12-24 09:00:00 +01:00', now)!).toISOString()).toBe('2026-12-24T08:00:00.000Z');
    expect(new Date(parseDateInput('2026-12-24T09:00:00.5-05:30', now)!).toISOString()).toBe('2026-12-24T14:30:00.500Z');
    for (const bad of ['soon', '2026-13-01', '24/12/2026', '2026-12-24T9']) expect(parseDateInput(bad, now), bad).toBeNull();
  });

  it('shows an instant in local time with its offset, and reads it back', () => {
    const stamp = localStamp(Date.parse('2026-07-01T12:00:00Z'));
    expect(stamp).toBe('2026-07-01 14:00:00 +02:00');
    expect(parseDateInput(stamp, now)).toBe(Date.parse('2026-07-01T12:00:00Z'));
  });
});
