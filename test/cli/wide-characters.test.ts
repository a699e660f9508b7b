import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { cellOf, stringWidth } from '../helpers/cells.js';

// Terminal tables measure text in terminal cells, not code points (issue 26.8): CJK characters
// and most emoji take two cells, a family emoji is one grapheme of several code points. Columns
// line up whatever the labels hold, and a label cut to fit is cut between graphemes.
const LABELS = ['plain label', '日本語のラベル', '😀 party time', '👨‍👩‍👧 family', 'e\u0301te\u0301 accents'];

describe('tables with wide characters (built binary, embedded sandbox)', () => {
  const home = new CliHome();
  beforeAll(async () => {
    for (const [i, label] of LABELS.entries()) expect((await home.run(['hub', 'create', '--name', `h${i}`, '--label', label])).exitCode).toBe(0);
  }, 60_000);
  afterAll(() => home.cleanup());

  it('columns after a CJK or emoji label start at the same terminal cell on every row', async () => {
    const res = await home.run(['hub', 'list'], { env: { CMS_FORCE_TTY: '200' } });
    expect(res.exitCode, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(LABELS.length + 1);
    const status = cellOf(lines, 'ACTIVE');
    expect(status).toHaveLength(LABELS.length);
    expect(new Set(status).size, res.stdout).toBe(1);
    expect(cellOf(lines, 'STATUS')).toEqual([status[0]]);
  });

  it('on a narrow terminal every line fits and labels are cut between graphemes', async () => {
    const res = await home.run(['hub', 'list'], { env: { CMS_FORCE_TTY: '60' } });
    expect(res.exitCode, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter(Boolean);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(60);
    // No half of a surrogate pair, no joiner or combining mark left dangling before the ellipsis.
    expect(res.stdout).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|\u200d…|\u0301…/);
    expect(new Set(cellOf(lines, 'ACTIVE')).size, res.stdout).toBe(1);
  });

  it('the import --dry-run plan aligns wide labels as item list does (one table path, issue 34.8)', async () => {
    const uri = 'https://schemas.example.com/wide.json';
    const schema = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: uri, title: 'Wide', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], type: 'object', properties: {} };
    expect((await home.run(['schema', 'create', '--hub', 'h0', '--file', '-', '--register', '--label', 'Wide'], { input: JSON.stringify(schema) })).exitCode).toBe(0);
    expect((await home.run(['repo', 'create', '--hub', 'h0', '--name', 'content', '--label', 'Content'])).exitCode).toBe(0);
    expect((await home.run(['type', 'assign', uri, '--hub', 'h0', '--repo', 'content'])).exitCode).toBe(0);
    for (const label of LABELS) expect((await home.run(['item', 'create', '--hub', 'h0', '--repo', 'content', '--schema', uri, '--label', label])).exitCode).toBe(0);
    const dir = join(home.dir, 'wide-export');
    expect((await home.run(['item', 'export', dir, '--hub', 'h0'])).exitCode).toBe(0);
    const res = await home.run(['item', 'import', dir, '--hub', 'h0', '--dry-run'], { env: { CMS_FORCE_TTY: '240' } });
    expect(res.exitCode, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter((l) => l.startsWith('unchanged  item') || l.startsWith('ACTION'));
    expect(lines).toHaveLength(LABELS.length + 1);
    // The REPOSITORY column (after LABEL and TARGET, which hold the labels) starts at the same terminal cell on every row.
    const repository = cellOf(lines, 'content');
    expect(repository).toHaveLength(LABELS.length);
    expect(new Set([...repository, ...cellOf(lines, 'REPOSITORY')]).size, res.stdout).toBe(1);
  });

  it('a long table (drawn in chunks) keeps one header and one alignment', async () => {
    const hubs = Array.from({ length: 450 }, (_, i) => ({ id: `6b${String(i).padStart(22, '0')}`, name: `h${i}`, label: i % 3 ? `label ${i}` : `ラベル ${i} 😀`, status: 'ACTIVE', createdDate: '2026-01-01T00:00:00.000Z' }));
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/oauth/token' ? { access_token: 't', expires_in: 3600 } : { _embedded: { hubs }, page: { number: 0, size: 1000, totalPages: 1, totalElements: hubs.length } }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const env = { CMS_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y', CMS_FORCE_TTY: '120' };
      const res = await home.run(['hub', 'list', '--all'], { env });
      expect(res.exitCode, res.stderr).toBe(0);
      const lines = res.stdout.split('\n').filter(Boolean);
      expect(lines).toHaveLength(451);
      expect(lines.filter((l) => l.startsWith('ID '))).toHaveLength(1);
      expect(new Set(cellOf(lines, 'ACTIVE')).size).toBe(1);
    } finally {
      server.close();
    }
  });
});
