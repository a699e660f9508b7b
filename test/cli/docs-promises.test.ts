import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// What the README promises about `cms profile show` and `cms runs` holds (issue 13, point 8).
describe('profile show says where each value came from', () => {
  const home = new CliHome();
  afterAll(() => home.cleanup());

  it('marks values from the environment, the profile, a flag and the defaults', async () => {
    expect((await home.run(['login', '--profile', 'p', '--sandbox', '--hub', 'from-profile'])).exitCode).toBe(0);
    const json = await home.json(['profile', 'show'], { env: { CMS_CLIENT_ID: 'env-client', CMS_CLIENT_SECRET: 'x' } });
    expect(json.sources).toMatchObject({ profile: 'profile', clientId: 'env', clientSecret: 'env', hub: 'profile', apiUrl: 'profile', dataDir: 'env', configFile: 'env' });
    const flagged = await home.json(['profile', 'show', '--hub', 'h'], { env: { CMS_HUB: 'env-hub' } });
    expect(flagged.sources.hub).toBe('flag');
    const table = await home.run(['profile', 'show'], { env: { CMS_HUB: 'env-hub', CMS_FORCE_TTY: '120' } });
    expect(table.stdout).toMatch(/SOURCE/);
    expect(table.stdout).toMatch(/hub\s+env-hub\s+env/);
  });
});

describe('cms runs', () => {
  const home = new CliHome();
  afterAll(() => home.cleanup());

  it('shows a run that stopped before doing anything as such', async () => {
    const dir = join(home.env.CMS_DATA_DIR!, 'runs', '20250101-120000-a1b2c3');
    mkdirSync(dir, { recursive: true });
    // A run killed before its first step: still 'running', its process gone, an empty journal.
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ id: '20250101-120000-a1b2c3', command: 'item import', options: {}, target: { apiUrl: 'x', profile: null }, startedAt: '2025-01-01T12:00:00.000Z', status: 'running', pid: 2 ** 22 + 12345 }));
    writeFileSync(join(dir, 'journal.ndjson'), '');
    const res = await home.run(['runs']);
    expect(res.stdout).toMatch(/interrupted before any change/);
    expect((await home.json(['runs']))[0].steps).toBe(0);
  });
});
