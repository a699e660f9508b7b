import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, schemaDocument } from '../helpers/content.js';

// Issue 32 point 8: a first `cms item export` killed before its manifest left a directory its
// rerun refused ("not empty and not an export"). The directory is marked as an export in progress
// before any item is written, so a rerun takes it and finishes it.

const home = new CliHome();
const URI = `${SCHEMA_HOST}/resume-article.json`;
const ITEMS = 6;

beforeAll(async () => {
  const schema = join(home.dir, 'schema.json');
  writeFileSync(schema, JSON.stringify(schemaDocument(URI)));
  expect((await home.run(['hub', 'create', '--name', 'resume', '--label', 'Resume'])).exitCode).toBe(0);
  expect((await home.run(['repo', 'create', '--hub', 'resume', '--name', 'content', '--label', 'Content'])).exitCode).toBe(0);
  const created = await home.run(['schema', 'create', '--hub', 'resume', '--file', schema, '--register', '--label', 'Article', '--repo', 'content']);
  expect(created.exitCode, created.stderr).toBe(0);
  for (let i = 0; i < ITEMS; i++) {
    const res = await home.run(['item', 'create', '--hub', 'resume', '--repo', 'content', '--schema', URI, '--label', `Article ${i}`, '--set', `body.title="Article ${i}"`]);
    expect(res.exitCode, res.stderr).toBe(0);
  }
}, 60_000);
afterAll(() => home.cleanup());

const itemFiles = (dir: string) => (existsSync(join(dir, 'items')) ? readdirSync(join(dir, 'items'), { recursive: true }).filter((f) => String(f).endsWith('.json')) : []);

describe('an export killed before its manifest', () => {
  it('is resumed by its rerun, which finishes it (items already written are found unchanged)', async () => {
    const dir = join(home.dir, 'killed-export');
    // Killed (SIGKILL) as it is about to write its 4th item file: 3 items on disk, no manifest.
    const killed = await home.run(['item', 'export', dir, '--hub', 'resume', '--concurrency', '1'], { env: { CMS_TEST_KILL_AT: 'export-file:4:before' } });
    expect(killed.exitCode, killed.stderr).not.toBe(0);
    expect(itemFiles(dir)).toHaveLength(3);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(false);

    // An import of the half export says what it is.
    const imported = await home.run(['item', 'import', dir, '--hub', 'resume', '--dry-run']);
    expect(imported.exitCode).toBe(2);
    expect(imported.stderr).toMatch(/did not finish/);

    const rerun = await home.run(['item', 'export', dir, '--hub', 'resume', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout);
    expect(summary).toMatchObject({ items: ITEMS, written: ITEMS - 3, unchanged: 3 });
    expect(itemFiles(dir)).toHaveLength(ITEMS);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
    // Finished: no longer marked, and an import takes it.
    expect(readdirSync(dir).filter((f) => f.includes('progress'))).toEqual([]);
    expect((await home.run(['item', 'import', dir, '--hub', 'resume', '--dry-run'])).exitCode).toBe(0);
  }, 60_000);

  it('a directory of something else is still refused', async () => {
    const dir = join(home.dir, 'not-an-export');
    const mine = join(home.dir, 'not-an-export', 'notes.txt');
    await home.run(['item', 'export', join(home.dir, 'scratch'), '--hub', 'resume']);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(mine, 'mine');
    const res = await home.run(['item', 'export', dir, '--hub', 'resume']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/not empty and not an export/);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  }, 60_000);
});
