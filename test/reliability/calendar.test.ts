import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/**
 * Tests never depend on the day they run. The suites that schedule, publish, move the sandbox
 * clock or run the docs' dated examples run again here with the machine's clock 400 days ahead
 * (libfaketime, Debian's `faketime`, which .ci/run installs): a hard-coded date that has to be in
 * the future, or an example that expires, fails here before the calendar reaches it.
 */

const ROOT = join(import.meta.dirname, '..', '..');
export const DATED_SUITES = [
  'test/cli/docs-examples.test.ts',
  'test/cli/editions.test.ts',
  'test/cli/editions-slots.test.ts',
  'test/cli/publishing.test.ts',
  'test/cli/durations-clock.test.ts',
  'test/cli/schedule-interactive.test.ts',
  'test/contract/editions',
  'test/contract/events',
  'test/contract/publishing',
  'test/contract/bulk-jobs',
  'test/contract/sandbox/sandbox-admin.test.ts',
  'test/contract/sandbox/trigger.test.ts',
  'test/unit/dates.test.ts',
  'test/unit/clock.test.ts',
];

const hasFaketime = spawnSync('faketime', ['-f', '+1d', 'true']).status === 0;

describe('the suites that depend on dates, 400 days ahead', () => {
  it('faketime moves the clock Node reads', () => {
    expect(hasFaketime, 'faketime is missing: apt-get install faketime (.ci/run installs it)').toBe(true);
    const res = spawnSync('faketime', ['-f', '+400d', process.execPath, '-e', 'console.log(Date.now())'], { encoding: 'utf8' });
    const ahead = (Number(res.stdout.trim()) - Date.now()) / 86_400_000;
    expect(ahead).toBeGreaterThan(399);
    expect(ahead).toBeLessThan(401);
  });

  it('pass under faketime -f +400d', async () => {
    expect(hasFaketime, 'faketime is missing: apt-get install faketime (.ci/run installs it)').toBe(true);
    const out = mkdtempSync(join(tmpdir(), 'cms-calendar-'));
    try {
      const report = join(out, 'report.json');
      const config = join(ROOT, 'test', 'reliability', 'calendar.vitest.config.ts');
      const res = await execa('faketime', ['-f', '+400d', process.execPath, join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config, ...DATED_SUITES], {
        cwd: ROOT,
        env: { CMS_CALENDAR_REPORT: report },
        reject: false,
        timeout: 25 * 60_000,
        all: true,
      });
      expect(existsSync(report), String(res.all).slice(-3000)).toBe(true);
      const r = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; testResults: { name: string; assertionResults: { status: string; fullName: string; failureMessages: string[] }[] }[] };
      const failed = r.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${f.name.slice(ROOT.length + 1)} > ${a.fullName}\n${a.failureMessages.join('\n').slice(0, 800)}`));
      expect(failed, String(res.all).slice(-3000)).toEqual([]);
      expect(r.numPassedTests).toBeGreaterThan(100);
      expect(res.exitCode).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 30 * 60_000);
});
