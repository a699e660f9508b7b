import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// Issue 13: durations accept 30s, 2m and plain seconds everywhere; the clock goes back without
// `--` and returns to real time with `cms sandbox clock reset`.
describe('durations and the sandbox clock (built binary)', () => {
  const home = new CliHome();
  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'clock', '--label', 'Clock'])).exitCode).toBe(0);
  });
  afterAll(() => home.cleanup());

  it('a duration flag takes plain seconds, units, and refuses anything else with exit 2', async () => {
    for (const timeout of ['2', '30s', '2m', '1m30s', '1.5']) {
      const res = await home.run(['job', 'wait', '000000000000000000000000', '--timeout', timeout]);
      expect(res.stderr, timeout).not.toContain('invalid');
      expect(res.exitCode, timeout).toBe(1); // 404: the flag itself was accepted
    }
    const bad = await home.run(['job', 'wait', '000000000000000000000000', '--timeout', 'soon']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('needs a duration such as 30s, 2m');
    const localize = await home.run(['item', 'localize', '00000000-0000-4000-8000-000000000000', '--locale', 'fr-FR', '--timeout', '30s']);
    expect(localize.stderr).not.toContain('invalid');
  });

  it('advance -26h goes back without --, and reset returns to real time', async () => {
    const back = await home.json(['sandbox', 'clock', 'advance', '-26h']);
    expect(back.offsetMs).toBeLessThan(-26 * 3600_000 + 60_000);
    expect(back.realTime).toBe(false);
    const frozen = await home.json(['sandbox', 'clock', 'freeze']);
    expect(frozen.frozen).toBe(true);
    const reset = await home.json(['sandbox', 'clock', 'reset']);
    expect(reset).toMatchObject({ frozen: false, offsetMs: 0, realTime: true });
    expect(Math.abs(Date.parse(reset.now) - Date.now())).toBeLessThan(60_000);
  });
});

describe('dates: typed and shown in local time on a terminal or with TZ, UTC with --utc and in JSON', () => {
  const home = new CliHome();
  const paris = { env: { TZ: 'Europe/Paris' } };
  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'dates', '--label', 'Dates'])).exitCode).toBe(0);
    await home.run(['sandbox', 'clock', 'set', '2026-07-01T10:00:00Z']);
  });
  afterAll(() => home.cleanup());

  it('tomorrow 09:00 is local (TZ), JSON is UTC, tables show local time, --utc shows UTC', async () => {
    const created = await home.json(['event', 'create', '--name', 'launch', '--start', 'tomorrow 09:00', '--end', '2026-07-02T18:00'], paris);
    expect(created.start).toBe('2026-07-02T07:00:00.000Z');
    expect(created.end).toBe('2026-07-02T16:00:00.000Z');
    const local = await home.run(['event', 'list'], paris);
    expect(local.stdout).toContain('2026-07-02 09:00:00 +02:00');
    const utc = await home.run(['event', 'list', '--utc'], paris);
    expect(utc.stdout).toContain('2026-07-02T07:00:00.000Z');
    const piped = await home.run(['event', 'list']);
    expect(piped.stdout).toContain('2026-07-02T07:00:00.000Z');
    const now = await home.json(['event', 'create', '--name', 'now', '--start', 'now', '--end', '+2h']);
    // now is the service's clock (set to 10:00 above, running since), not this machine's.
    expect(Math.abs(Date.parse(now.start) - Date.parse('2026-07-01T10:00:00Z'))).toBeLessThan(60_000);
  });
});

describe('bodies: JSON errors name the line and column', () => {
  const home = new CliHome();
  afterAll(() => home.cleanup());

  it('a JSON file with an error names the file, line and column; a directory is refused', async () => {
    const res = await home.run(['hub', 'create', '--body-file', '-'], { input: '{\n  "name": "x",\n  "label": oops\n}' });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/Standard input is not valid JSON \(line 3, column \d+\)/);
    const dir = await home.run(['hub', 'create', '--body-file', home.dir]);
    expect(dir.exitCode).toBe(2);
    expect(dir.stderr).toContain('is a directory');
  });
});
