import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { cellOf } from '../helpers/cells.js';

// What the fourth trial of a demanding user found broken (issue 34): every test runs the built
// binary, on the embedded sandbox unless it needs a service of its own.

const home = new CliHome();

beforeAll(async () => {
  expect((await home.run(['hub', 'create', '--name', 'r4', '--label', 'Round four'])).exitCode).toBe(0);
}, 60_000);
afterAll(() => home.cleanup());

describe('4. -o json errors keep the service code and status', () => {
  it('edition schedule refused (409 EDITION_IS_EMPTY) prints that code and status 409, not FAILED', async () => {
    const event = (await home.run(['event', 'create', '--hub', 'r4', '--name', 'ev', '--start', '+2d', '--end', '+5d', '-q'])).stdout.trim();
    const edition = (await home.run(['edition', 'create', '--hub', 'r4', '--event', event, '--name', 'empty', '--start', '+2d', '--end', '+3d', '-q'])).stdout.trim();
    expect(edition).toMatch(/^[0-9a-f]{24}$/);
    const res = await home.run(['edition', 'schedule', edition, '--hub', 'r4', '--yes', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(1);
    const { error } = JSON.parse(res.stderr);
    expect(error).toMatchObject({ code: 'EDITION_IS_EMPTY', status: 409, exitCode: 1 });
    expect(error.message).toMatch(/EDITION_IS_EMPTY/);
  });
});

describe('6. formats the service uses are known; no library writes to the terminal', () => {
  it('a schema with format "markdown" (and an unknown format): create and update items print nothing on stderr', async () => {
    const uri = 'https://schemas.example.com/round4-markdown.json';
    const schema = {
      $schema: 'http://bigcontent.io/cms/schema/v1/schema#',
      id: uri,
      title: 'Md',
      allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }],
      type: 'object',
      properties: { text: { type: 'string', format: 'markdown' }, odd: { type: 'string', format: 'no-such-format' } },
    };
    const created = await home.run(['schema', 'create', '--hub', 'r4', '--file', '-', '--register', '--label', 'Md', '-o', 'json'], { input: JSON.stringify(schema) });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    expect((await home.run(['repo', 'create', '--hub', 'r4', '--name', 'md', '--label', 'Md'])).exitCode).toBe(0);
    expect((await home.run(['type', 'assign', uri, '--hub', 'r4', '--repo', 'md'])).exitCode).toBe(0);
    const item = await home.run(['item', 'create', '--hub', 'r4', '--repo', 'md', '--schema', uri, '--label', 'one', '--set', 'body.text=# Hello', '--set', 'body.odd=x', '-o', 'json']);
    expect(item.exitCode, item.stderr).toBe(0);
    expect(item.stderr).toBe('');
    const id = JSON.parse(item.stdout).id as string;
    const updated = await home.run(['item', 'update', id, '--hub', 'r4', '--set', 'body.text=*more*', '-o', 'json']);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.stderr).toBe('');
  });
});

describe('7. cms runs: id columns are never cut', () => {
  it('on a narrow terminal, run ids (ID, UNDO OF) and the status are whole; the hub shows by name', async () => {
    // A run and its undo: the undo's UNDO OF names the first.
    const dir = join(home.dir, 'runs-schemas');
    mkdirSync(dir, { recursive: true });
    const uri = 'https://schemas.example.com/round4-runs.json';
    writeFileSync(join(dir, 'runs.json'), JSON.stringify({ $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: uri, title: 'Runs', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], type: 'object', properties: {} }));
    const applied = await home.json<{ runId: string }>(['schema', 'apply', dir, '--hub', 'r4']);
    const undone = await home.run(['undo', applied.runId, '--yes']);
    expect(undone.exitCode, undone.stderr).toBe(0);
    const res = await home.run(['runs'], { env: { CMS_FORCE_TTY: '80' } });
    expect(res.exitCode, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter(Boolean);
    const listed = await home.json<{ id: string; status: string; undoOf?: string }[]>(['runs']);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.some((r) => r.undoOf)).toBe(true);
    for (const r of listed) {
      const line = lines.find((l) => l.startsWith(`${r.id} `));
      expect(line, `${r.id} whole in\n${res.stdout}`).toBeDefined();
      expect(line).toContain(` ${r.status} `);
      if (r.undoOf) expect(line, r.id).toMatch(new RegExp(` ${r.undoOf}$`));
    }
    // The hub by its name, not its 24-character id.
    expect(cellOf(lines, ' r4 ').length, res.stdout).toBe(2);
    expect(res.stdout).not.toMatch(/\b[0-9a-f]{24}\b/);
  });
});

describe('9. hints name where a setting came from', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('login --api-url to something that is not the service names the --api-url flag, never "the sandbox default"', async () => {
    const res = await home.run(['login', '--profile', 'wrong', '--api-url', url, '--client-id', 'a', '--client-secret', 'b']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).not.toContain('sandbox default');
    expect(res.stderr).toContain('--api-url');
  });
});

describe('10. required flags are marked and checked before any request', () => {
  it('hub create and repo create without --label: exit 2 naming the flag, nothing sent; help marks them', async () => {
    for (const args of [
      ['hub', 'create', '--name', 'nolabel'],
      ['repo', 'create', '--hub', 'r4', '--name', 'nolabel'],
      ['hub', 'create', '--label', 'No name'],
    ]) {
      const res = await home.run([...args, '--debug']);
      expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/Missing required option/);
      // No request reached the service (--debug prints every request).
      expect(res.stderr, args.join(' ')).not.toMatch(/^(> )?POST /m);
      expect(res.stderr).not.toMatch(/400 Bad Request/);
    }
    for (const noun of ['hub', 'repo']) {
      const help = await home.run([noun, 'create', '--help']);
      expect(help.stdout).toMatch(/--label <label>\s+display label \(required/);
      expect(help.stdout).toMatch(/--name <name>\s+[^\n]*\(required/);
    }
  });

  it('the body file or --set may give them instead', async () => {
    const res = await home.run(['hub', 'create', '--body-file', '-', '-o', 'json'], { input: JSON.stringify({ name: 'from-body', label: 'From body' }) });
    expect(res.exitCode, res.stderr).toBe(0);
    const set = await home.run(['repo', 'create', '--hub', 'r4', '--name', 'setlabel', '--set', 'label=Set label', '-o', 'json']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).label).toBe('Set label');
    const missing = await home.run(['hub', 'create', '--body-file', '-'], { input: JSON.stringify({ name: 'no-label-body' }) });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/Missing required option: --label/);
  });
});

describe('12. an unknown command with --help is an error', () => {
  it('cms nosuchnoun --help: exit 2 (usage), naming it, with a suggestion for a near one', async () => {
    const res = await home.run(['nosuchnoun', '--help']);
    expect(res.exitCode).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/unknown command 'nosuchnoun'/);
    const near = await home.run(['hbu', '--help']);
    expect(near.exitCode).toBe(2);
    expect(near.stderr).toMatch(/Did you mean hub\?/);
    const verb = await home.run(['hub', 'craete', '--help']);
    expect(verb.exitCode).toBe(2);
    expect(verb.stderr).toMatch(/unknown command 'craete'/);
    expect(verb.stderr).toMatch(/Did you mean create\?/);
    // Real help still works, and -o json errors say it for scripts.
    expect((await home.run(['hub', '--help'])).exitCode).toBe(0);
    expect((await home.run(['--help'])).exitCode).toBe(0);
    const json = await home.run(['nosuchnoun', '--help', '-o', 'json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'USAGE', reason: 'unknownCommand', exitCode: 2 });
  });
});
