import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { fakeService } from '../helpers/fake-service.js';

// Numbers of `cms index stats` and `cms index analytics`, one rule: on a terminal, counts with
// thousands separators, rates as percentages to one decimal, averages to one decimal; piped rows,
// JSON and YAML keep the service's numbers as they are (a script reads them). A service on
// loopback answers fixed figures, so every rounding case is there.
const HUB = '6b0000000000000000000001';
const INDEX = '6c0000000000000000000001';

const STATS = {
  totalRecords: 1234567,
  totalRecordSize: 98765432101,
  averageRecordSize: 80004.98,
  period: 'month',
  usage: { numberOfSearches: { value: 1500 }, averageResponseTime: { unit: 'ms', value: 12.345678 } },
};
const TOP = [
  { search: 'shoes', count: 12345, nbHits: 1000000, clickThroughRate: 1 / 3, conversionRate: 0.05, averageClickPosition: 8 / 3 },
  { search: 'boots', count: 7, nbHits: 0, clickThroughRate: null, conversionRate: 0, averageClickPosition: null },
];
const NO_RESULTS = { rate: 0.125, count: 16000, noResultCount: 2000, dates: [{ date: '2031-05-01', rate: 0.125, count: 16000, noResultCount: 2000 }, { date: '2031-05-02', rate: 2 / 3, count: 3, noResultCount: 2 }] };

describe('numbers in cms index stats and analytics', () => {
  const home = new CliHome();
  let service: Awaited<ReturnType<typeof fakeService>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    const base = `/v2/content/hubs/${HUB}/search-indexes/${INDEX}`;
    const answers: Record<string, unknown> = { [`${base}/stats`]: STATS, [`${base}/analytics/top-searches`]: { _embedded: { 'top-searches': TOP } }, [`${base}/analytics/no-results-rate`]: NO_RESULTS };
    service = await fakeService((path) => (path in answers ? { body: answers[path] } : undefined));
    env = service.env;
  });
  afterAll(() => {
    service.close();
    home.cleanup();
  });

  const run = async (args: string[], extra: Record<string, string> = {}) => {
    const res = await home.run([...args, '--hub', HUB], { env: { ...env, ...extra } });
    expect(res.exitCode, res.stderr).toBe(0);
    return res.stdout;
  };
  /** Each line's words, the table's columns apart by two spaces or more. */
  const cells = (text: string) => text.trimEnd().split('\n').map((l) => l.trim().split(/\s{2,}/));

  it('stats on a terminal: counts grouped, averages to one decimal', async () => {
    const out = cells(await run(['index', 'stats', INDEX], { CMS_FORCE_TTY: '120' }));
    expect(out).toEqual(
      expect.arrayContaining([
        ['RECORDS', '1,234,567'],
        ['BYTES', '98,765,432,101'],
        ['AVERAGE BYTES', '80,005.0'],
        ['SEARCHES', '1,500'],
        ['AVERAGE MS', '12.3'],
        ['PERIOD', 'month'],
      ]),
    );
  });

  it('analytics on a terminal: counts grouped, rates as percentages, positions to one decimal, a missing figure empty', async () => {
    const top = cells(await run(['index', 'analytics', INDEX, 'top-searches', '--click-analytics'], { CMS_FORCE_TTY: '120' }));
    expect(top[1]).toEqual(['shoes', '12,345', '1,000,000', '33.3%', '5.0%', '2.7']);
    expect(top[2]).toEqual(['boots', '7', '0', '0.0%']);
    const rate = cells(await run(['index', 'analytics', INDEX, 'no-results-rate'], { CMS_FORCE_TTY: '120' }));
    expect(rate.slice(1)).toEqual([
      ['2031-05-01', '16,000', '2,000', '12.5%'],
      ['2031-05-02', '3', '2', '66.7%'],
    ]);
  });

  it('piped rows, JSON and YAML keep the numbers as the service sent them', async () => {
    const piped = await run(['index', 'stats', INDEX]);
    expect(piped).toContain('totalRecords\t1234567\n');
    expect(piped).toContain('usage.averageResponseTime.value\t12.345678\n');
    const rows = (await run(['index', 'analytics', INDEX, 'top-searches'])).trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows[0]).toEqual(['shoes', '12345', '1000000', String(1 / 3), '0.05', String(8 / 3)]);
    expect(JSON.parse(await run(['index', 'stats', INDEX, '-o', 'json']))).toEqual(STATS);
    expect(JSON.parse(await run(['index', 'analytics', INDEX, 'no-results-rate', '-o', 'json'], { CMS_FORCE_TTY: '120' }))).toEqual(NO_RESULTS);
    const { parse } = await import('yaml');
    expect(parse(await run(['index', 'stats', INDEX, '-o', 'yaml'], { CMS_FORCE_TTY: '120' }))).toEqual(STATS);
  });
});
