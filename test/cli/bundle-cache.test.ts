import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// bin/cms.js compiles the bundle (dist/bundle/cli/main.cjs) with the V8 code cache the build made
// beside it. The cache must serve the bundle it was made from, and nothing else: a bundle changed
// after the build compiles from its source, and a cache V8 refuses (other flags) only costs time.
const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'bundle', 'cli', 'main.cjs');
const loader = join(root, 'bin', 'bundle.cjs');

/** Loads `file` in a fresh node (default flags unless given) and says whether the cache served. */
function cached(file: string, flags: string[] = []): boolean {
  const res = spawnSync(process.execPath, [...flags, '-e', `process.stdout.write(String(require(${JSON.stringify(loader)}).loadBundle(${JSON.stringify(file)}).cached))`], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  expect(res.status, res.stderr).toBe(0);
  return res.stdout === 'true';
}

describe('the bundle code cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-bundle-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the bundle it was made from', () => {
    expect(cached(bundle)).toBe(true);
  });

  it('is not used for a bundle changed after the build, even one of the same length', () => {
    const copy = join(dir, 'main.cjs');
    copyFileSync(`${bundle}.cache`, `${copy}.cache`);
    const source = readFileSync(bundle, 'utf8');
    writeFileSync(copy, source);
    expect(cached(copy)).toBe(true); // the same bytes elsewhere: served
    const at = source.indexOf('no verb module');
    expect(at).toBeGreaterThan(0);
    writeFileSync(copy, source.slice(0, at) + 'No verb module' + source.slice(at + 'no verb module'.length));
    expect(cached(copy)).toBe(false);
  });

  it('is not used when damaged', () => {
    const copy = join(dir, 'damaged.cjs');
    copyFileSync(bundle, copy);
    const cache = readFileSync(`${bundle}.cache`);
    writeFileSync(`${copy}.cache`, cache);
    expect(cached(copy)).toBe(true);
    const damaged = Buffer.from(cache);
    damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
    writeFileSync(`${copy}.cache`, damaged);
    expect(cached(copy)).toBe(false);
    writeFileSync(`${copy}.cache`, cache.subarray(0, cache.length - 1000));
    expect(cached(copy)).toBe(false);
  });

  // --jitless: a flag V8 refuses the cache under on Node 20 and 24 alike (heap sizes stopped
  // counting in Node 24), and one NODE_OPTIONS accepts.
  it('refused by V8 under other flags, the CLI compiles as usual', async () => {
    expect(cached(bundle, ['--jitless'])).toBe(false);
    const home = new CliHome();
    try {
      expect((await home.run(['hub', 'create', '--name', 'flags', '--label', 'Flags'])).exitCode).toBe(0);
      const res = await home.run(['hub', 'list'], { env: { NODE_OPTIONS: '--jitless' } });
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout).toContain('flags');
    } finally {
      home.cleanup();
    }
  });
});
