import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, schemaDocument } from '../helpers/content.js';

// Issue 32 point 11 / issue 34 point 3: `item publish|unpublish --wait` compared publishing dates,
// so an item published while the sandbox clock was ahead (`cms demo`, or `clock advance` then
// `clock reset`) never looked published or unpublished again: exit 8 though the work was done.
// The waits now follow the state the operation produced (the job, the version, the status), and
// the demo leaves no date in the future.

const home = new CliHome();
const URI = `${SCHEMA_HOST}/clock-article.json`;

const newItem = async (label: string) => {
  const res = await home.run(['item', 'create', '--hub', 'clocked', '--repo', 'content', '--schema', URI, '--label', label, '--set', `body.title="${label}"`, '-q']);
  expect(res.exitCode, res.stderr).toBe(0);
  return res.stdout.trim();
};

beforeAll(async () => {
  const schema = join(home.dir, 'schema.json');
  writeFileSync(schema, JSON.stringify(schemaDocument(URI)));
  expect((await home.run(['hub', 'create', '--name', 'clocked', '--label', 'Clocked'])).exitCode).toBe(0);
  expect((await home.run(['repo', 'create', '--hub', 'clocked', '--name', 'content', '--label', 'Content'])).exitCode).toBe(0);
  const created = await home.run(['schema', 'create', '--hub', 'clocked', '--file', schema, '--register', '--label', 'Article', '--repo', 'content']);
  expect(created.exitCode, created.stderr).toBe(0);
}, 60_000);
afterAll(() => home.cleanup());

const item = (id: string) => home.json<{ publishingStatus: string; lastPublishedDate?: string; lastUnpublishedDate?: string }>(['item', 'get', id]);

describe('publish and unpublish --wait after the sandbox clock went back', () => {
  it('clock advance, publish, clock reset: publish --wait and unpublish --wait end at once (exit 0)', async () => {
    const id = await newItem('Ahead');
    expect((await home.run(['sandbox', 'clock', 'advance', '2d'])).exitCode).toBe(0);
    expect((await home.run(['item', 'publish', id, '--hub', 'clocked', '--wait', '--timeout', '10s'])).exitCode).toBe(0);
    expect((await home.run(['sandbox', 'clock', 'reset'])).exitCode).toBe(0);
    expect(Date.parse((await item(id)).lastPublishedDate!)).toBeGreaterThan(Date.now() + 86_400_000);

    // Published again, now: the date goes back; the publish is done all the same.
    const published = await home.run(['item', 'publish', id, '--hub', 'clocked', '--wait', '--timeout', '5s']);
    expect(published.exitCode, published.stderr).toBe(0);
    expect((await item(id)).publishingStatus).toBe('LATEST');

    // The unpublish is dated before the (future) publish date: done all the same.
    const ahead = await newItem('Unpublished behind');
    expect((await home.run(['sandbox', 'clock', 'advance', '2d'])).exitCode).toBe(0);
    expect((await home.run(['item', 'publish', ahead, '--hub', 'clocked', '--wait', '--timeout', '10s'])).exitCode).toBe(0);
    expect((await home.run(['sandbox', 'clock', 'reset'])).exitCode).toBe(0);
    const unpublished = await home.run(['item', 'unpublish', ahead, '--hub', 'clocked', '--wait', '--timeout', '5s', '-o', 'json']);
    expect(unpublished.exitCode, unpublished.stderr).toBe(0);
    expect(JSON.parse(unpublished.stdout).publishingStatus).toBe('UNPUBLISHED');
  }, 90_000);
});

describe('after cms demo', () => {
  it('leaves no publishing date in the future, and publish|unpublish --wait work on its items', async () => {
    const h = new CliHome();
    try {
      const demo = await h.run(['demo'], { timeout: 120_000 });
      expect(demo.exitCode, demo.stderr).toBe(0);
      const now = Date.now();
      const items = await h.json<{ id: string; label: string; lastPublishedDate?: string; lastModifiedDate: string; createdDate: string }[]>(['item', 'list', '--hub', 'demo', '--repo', 'content', '--limit', '100']);
      expect(items.length).toBeGreaterThan(0);
      for (const i of items) for (const d of [i.lastPublishedDate, i.lastModifiedDate, i.createdDate]) if (d) expect(Date.parse(d), `${i.label}: ${d}`).toBeLessThanOrEqual(now);
      const launch = items.find((i) => i.lastPublishedDate)!;
      const published = await h.run(['item', 'publish', launch.id, '--hub', 'demo', '--wait', '--timeout', '10s']);
      expect(published.exitCode, published.stderr).toBe(0);
      const unpublished = await h.run(['item', 'unpublish', launch.id, '--hub', 'demo', '--wait', '--timeout', '10s']);
      expect(unpublished.exitCode, unpublished.stderr).toBe(0);
    } finally {
      h.cleanup();
    }
  }, 180_000);
});
