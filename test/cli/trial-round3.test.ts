import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { contentSetup, createItem, schemaDocument } from '../helpers/content.js';
import { Api, ok, startServer, type TestServer } from '../helpers/server.js';

// What the third trial of a demanding user found broken (issue 26): every test runs the built
// binary, on the embedded sandbox unless it needs one served over HTTP.

const home = new CliHome();
const URI = 'https://schemas.example.com/round3.json';
let demoEdition: string;

beforeAll(async () => {
  const demo = await home.run(['demo']);
  expect(demo.exitCode, demo.stderr).toBe(0);
  demoEdition = (await home.json(['edition', 'list', '--event', 'Launch week', '--hub', 'demo']))[0].id;
  expect((await home.run(['hub', 'create', '--name', 'r3', '--label', 'Round three'])).exitCode).toBe(0);
  const created = await home.run(['schema', 'create', '--hub', 'r3', '--file', '-', '--register', '--label', 'Thing'], { input: JSON.stringify(schemaDocument(URI)) });
  expect(created.exitCode, created.stderr).toBe(0);
}, 180_000);
afterAll(() => home.cleanup());

describe('14. cms demo leaves the sandbox clock on real time', () => {
  it('realTime is true after the demo', async () => {
    expect(await home.json(['sandbox', 'clock', 'show'])).toMatchObject({ realTime: true, frozen: false, offsetMs: 0 });
  });
});

describe('2. impossible dates are refused, never moved', () => {
  it('every date flag refuses Feb 30, Apr 31 and Feb 31 with exit 2, naming the date', async () => {
    const lines: string[][] = [
      ['event', 'create', '--hub', 'r3', '--name', 'x', '--start', '2026-02-30T10:00', '--end', '2026-03-10T10:00'],
      ['event', 'create', '--hub', 'r3', '--name', 'x', '--start', '2026-04-01T10:00', '--end', '2026-04-31'],
      ['edition', 'list', '--hub', 'r3', '--from', '2026-02-31T00:00:00Z', '--to', '2026-03-31T00:00:00Z'],
      ['edition', 'schedule', demoEdition, '--hub', 'demo', '--start', '2026-02-30T10:00', '--yes'],
      ['sandbox', 'clock', 'set', '2026-02-30T10:00:00Z'],
      ['index', 'analytics', 'whatever', 'searches-count', '--hub', 'r3', '--start', '2031-04-31'],
    ];
    for (const args of lines) {
      const res = await home.run(args);
      const date = args.find((a) => /^\d{4}-\d{2}-3[01]/.test(a))!;
      expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(date);
      expect(res.stderr, args.join(' ')).toMatch(/does not exist|not a date/);
    }
    // The clock did not move.
    expect(await home.json(['sandbox', 'clock', 'show'])).toMatchObject({ realTime: true });
  });

  it('real last days of months still work (2028-02-29, 2026-04-30)', async () => {
    const res = await home.run(['event', 'create', '--hub', 'r3', '--name', 'leap', '--start', '2028-02-29T10:00:00Z', '--end', '2028-04-30T10:00:00Z', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ start: '2028-02-29T10:00:00.000Z', end: '2028-04-30T10:00:00.000Z' });
  });
});

describe('4. a dry run never asks', () => {
  it('hub delete --dry-run without a terminal prints the request, exit 0, and deletes nothing', async () => {
    const res = await home.run(['hub', 'delete', 'r3', '--dry-run']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('--yes');
    expect(res.stdout).toMatch(/^DELETE /);
    expect((await home.run(['hub', 'get', 'r3'])).exitCode).toBe(0);
  });
});

describe('10. a PUBLISHED edition says what is possible', () => {
  it('update, delete and unschedule name the published state and what can be done instead', async () => {
    for (const args of [
      ['edition', 'update', demoEdition, '--hub', 'demo', '--name', 'x'],
      ['edition', 'delete', demoEdition, '--hub', 'demo', '--yes'],
      ['edition', 'unschedule', demoEdition, '--hub', 'demo'],
    ]) {
      const res = await home.run(args);
      expect(res.exitCode, args.join(' ')).toBe(1);
      expect(res.stderr, args.join(' ')).toContain('PUBLISHED');
      expect(res.stderr, args.join(' ')).not.toContain('unschedule it first');
      expect(res.stderr, args.join(' ')).not.toContain('only a scheduled edition can be unscheduled');
      // What is possible: a new edition copied from it, or archiving it.
      expect(res.stderr, args.join(' ')).toContain('--copy-from');
      expect(res.stderr, args.join(' ')).toContain('cms edition archive');
    }
  });
});

describe('11. profile show names the data directory wherever it came from', () => {
  it('CMS_DATA_DIR set, remote profile: the directory is shown with source env', async () => {
    const env = { CMS_API_URL: 'http://127.0.0.1:9', CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' };
    const rows = (await home.run(['profile', 'show'], { env })).stdout.split('\n').map((l) => l.split('\t'));
    const dataDir = rows.find((r) => r[0] === 'dataDir');
    expect(dataDir).toEqual(['dataDir', home.env.CMS_DATA_DIR, 'env']);
    const json = await home.json(['profile', 'show'], { env });
    expect(json.dataDir).toBe(home.env.CMS_DATA_DIR);
  });
});

describe('3. an interrupted undo can be continued as it says', () => {
  it('undo --resume <undo run> finishes the undo', async () => {
    const repo = (await home.json(['repo', 'create', '--hub', 'r3', '--name', 'undo-src', '--label', 'Undo source'])).id;
    await home.run(['type', 'assign', URI, '--repo', repo, '--hub', 'r3']);
    for (let i = 0; i < 4; i++) {
      const made = await home.run(['item', 'create', '--repo', repo, '--hub', 'r3', '--schema', URI, '--label', `u${i}`, '--set', `body.title=u${i}`]);
      expect(made.exitCode, made.stderr).toBe(0);
    }
    const dir = join(home.dir, 'undo-export');
    expect((await home.run(['item', 'export', dir, '--hub', 'r3', '--repo', repo])).exitCode).toBe(0);
    const target = (await home.json(['repo', 'create', '--hub', 'r3', '--name', 'undo-dst', '--label', 'Undo target'])).id;
    await home.run(['type', 'assign', URI, '--repo', target, '--hub', 'r3']);
    const imported = await home.json(['item', 'import', dir, '--hub', 'r3', '--repo', target]);
    expect(imported).toMatchObject({ created: 4, failed: 0 });
    // --resume with a directory that is not the run's is refused, never silently ignored.
    const elsewhere = await home.run(['item', 'import', join(home.dir, 'elsewhere'), '--resume', imported.runId]);
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(2);
    expect(elsewhere.stderr).toContain(`continues the run on ${dir}`);
    const killed = await home.run(['undo', imported.runId, '--yes'], { env: { CMS_TEST_KILL_AT: 'archive:2:before' } });
    expect(killed.exitCode).not.toBe(0);
    const runs = await home.json(['runs']);
    const undoRun = runs.find((r: any) => r.command === 'undo' && r.undoOf === imported.runId) ?? runs.find((r: any) => r.command === 'undo');
    expect(undoRun, JSON.stringify(runs)).toBeTruthy();
    const resumed = await home.run(['undo', '--resume', undoRun.id ?? undoRun.runId, '--yes', '-o', 'json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const items = await home.json(['item', 'list', '--hub', 'r3', '--repo', target, '--status', 'ACTIVE']);
    expect(items).toEqual([]);
    // Resuming an undo with the run it reverts (not an undo run) says which to give.
    const wrong = await home.run(['undo', '--resume', imported.runId, '--yes']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(`cms undo ${imported.runId}`);
  });
});

describe('13. webhook requests show a refused connection as a network error', () => {
  let srv: TestServer;
  let api: Api;
  let closed: Server;
  beforeAll(async () => {
    srv = await startServer();
    api = await new Api(srv.url).login();
    closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('RESULT says the receiver could not be reached, with the error; -o json keeps the record', async () => {
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const setup = await contentSetup(api);
    const hub = { id: setup.hubId };
    const hook = await ok(api.post(`/hubs/${hub.id}/webhooks`, { label: 'dead', events: ['content-item.created'], handlers: [`http://127.0.0.1:${port}/hook`], active: true, secret: 's3cret-value' }));
    const env = { CMS_API_URL: srv.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
    // A delivery to it: the webhook fires when an item is created.
    await createItem(api, setup.repoId, setup.uri);
    let rows: any[] = [];
    for (let i = 0; i < 100 && !rows.length; i++) {
      rows = (await ok(api.get(`/hubs/${hub.id}/webhooks/${hook.id}/requests`)))._embedded?.requests ?? [];
      if (!rows.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.length, 'no delivery was attempted').toBeGreaterThan(0);
    const res = await home.run(['webhook', 'requests', hook.id, '--hub', hub.id, '--columns', 'result,status,error'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    const [result, status, error] = res.stdout.split('\n')[0]!.split('\t');
    expect(result).toBe('network error');
    expect(status).toBe('');
    expect(error).toMatch(/connection refused/i);

    // 'webhook get' hides the signing secret unless --show-secret.
    const got = await home.run(['webhook', 'get', hook.id, '--hub', hub.id], { env });
    expect(got.exitCode, got.stderr).toBe(0);
    expect(got.stdout).not.toContain('s3cret-value');
    expect(got.stdout).toMatch(/secret\t\(set; --show-secret shows it\)/);
    const json = await home.json(['webhook', 'get', hook.id, '--hub', hub.id], { env });
    expect(json.secret).not.toBe('s3cret-value');
    const shown = await home.json(['webhook', 'get', hook.id, '--hub', hub.id, '--show-secret'], { env });
    expect(shown.secret).toBe('s3cret-value');
  });
});

describe('5. a CMS_API_URL that is not the service says so', () => {
  const servers: Server[] = [];
  const serve = async (handler: Parameters<typeof createServer>[1]) => {
    const s = createServer(handler);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
  };
  afterAll(() => {
    for (const s of servers) s.close();
  });
  const remote = (url: string) => ({ env: { CMS_API_URL: url, CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' } });

  it('an HTML page answering 200: not the service, what was expected and what came back', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Welcome to nginx</body></html>'));
    const res = await home.run(['hub', 'list'], remote(url));
    expect(res.exitCode).toBe(1);
    expect(res.stderr).not.toContain('200 Error');
    expect(res.stderr).toContain('does not look like the service');
    expect(res.stderr).toContain('an access token');
    expect(res.stderr).toMatch(/200 text\/html/);
    expect(res.stderr).toContain('CMS_API_URL');
    const json = await home.run(['hub', 'list', '-o', 'json'], remote(url));
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'NOT_THE_SERVICE', status: 200, exitCode: 1 });
  });

  it('404 on the token path: not "check the identifier"', async () => {
    const url = await serve((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    const res = await home.run(['hub', 'list'], remote(url));
    expect(res.exitCode).toBe(1);
    expect(res.stderr).not.toContain('check the identifier');
    expect(res.stderr).toContain('does not look like the service');
    expect(res.stderr).toMatch(/\/oauth\/token answered 404/);
  });

  it('https to an http server: no OpenSSL dump, the likely cause', async () => {
    const url = await serve((_req, res) => res.end('plain'));
    const res = await home.run(['hub', 'list'], remote(url.replace('http:', 'https:')));
    expect(res.exitCode).toBe(1);
    expect(res.stderr).not.toMatch(/SSL routines|ssl3_get_record|wrong version number|:error:/);
    expect(res.stderr).toMatch(/does not speak https/);
    expect(res.stderr).toContain(url);
  });

  it('a malformed or non-http URL is a usage error (exit 2) naming where it came from, before any connection', async () => {
    for (const bad of ['ftp://example.com', 'example.com/api', 'http://']) {
      const res = await home.run(['hub', 'list'], remote(bad));
      expect(res.exitCode, `${bad}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(`CMS_API_URL '${bad}'`);
      expect(res.stderr).toMatch(/https:\/\//);
    }
  });

  it('a refused connection says so after the first failure (retrying), not after seconds of silence', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    const res = await home.run(['hub', 'list'], remote(`http://127.0.0.1:${port}`));
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/connection refused.*retrying/i);
    expect(res.stderr.indexOf('retrying')).toBeLessThan(res.stderr.indexOf('error:'));
    // The hint names where the URL came from: the environment here.
    expect(res.stderr).toContain('CMS_API_URL');
  });
});

describe('6. a damaged sandbox.db is named, and sandbox reset and status recover from it', () => {
  const broken = new CliHome();
  afterAll(() => broken.cleanup());
  const damage = async () => {
    expect((await broken.run(['hub', 'create', '--name', 'h', '--label', 'H'])).exitCode).toBe(0);
    writeFileSync(join(broken.env.CMS_DATA_DIR, 'sandbox.db'), 'this is not a database, it was overwritten by accident '.repeat(200));
  };
  const aside = () => readdirSync(broken.env.CMS_DATA_DIR).filter((f) => f.startsWith('sandbox.db.damaged-'));

  it('any command names the file and how to recover; nothing is moved', async () => {
    await damage();
    const res = await broken.run(['hub', 'list']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).not.toContain('unexpected failure');
    expect(res.stderr).toContain(join(broken.env.CMS_DATA_DIR, 'sandbox.db'));
    expect(res.stderr).toContain('cms sandbox reset');
    expect(aside()).toEqual([]);
  });

  it('sandbox status moves it aside, says where, and shows the empty sandbox', async () => {
    const res = await broken.run(['sandbox', 'status']);
    expect(res.exitCode, res.stderr).toBe(0);
    const moved = aside();
    expect(moved).toHaveLength(1);
    expect(res.stderr).toContain(join(broken.env.CMS_DATA_DIR, moved[0]!));
    expect((await broken.json(['hub', 'list'])).length).toBe(0);
  });

  it('sandbox reset --yes does the same', async () => {
    await damage();
    const res = await broken.run(['sandbox', 'reset', '--yes']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(aside()).toHaveLength(2);
    expect(res.stderr).toMatch(/moved aside to .*sandbox\.db\.damaged-/);
    expect((await broken.json(['hub', 'list'])).length).toBe(0);
    expect(existsSync(join(broken.env.CMS_DATA_DIR, 'sandbox.db'))).toBe(true);
  });
});

describe('9. completion offers what the word can be', () => {
  const root = join(import.meta.dirname, '..', '..');
  let script: string;
  const complete = (line: string) => {
    const words = line.split(' ');
    const program = `${script}\ncms() { node ${join(root, 'bin', 'cms.js')} "$@"; }\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cms_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', program], { env: { ...process.env, ...home.env, CMS_COMPLETE_TIMEOUT_MS: '30000' }, encoding: 'utf8' }).split('\n').filter(Boolean);
  };
  beforeAll(async () => {
    script = (await home.run(['completion', 'bash'])).stdout;
  });

  it('cms --hub <TAB> offers hubs, not nouns', () => {
    const words = complete('cms --hub ');
    expect(words).toEqual(expect.arrayContaining(['demo', 'r3']));
    expect(words).not.toContain('item');
  });

  it('edition schedule --event <TAB> offers events; a value option without candidates offers nothing else', () => {
    const events = complete('cms edition schedule --hub demo --event ');
    expect(events).toEqual([String.raw`Launch\ week`]);
    expect(complete('cms edition schedule --hub demo --start ')).toEqual([]);
  });

  it('edition schedule <TAB> offers DRAFT editions only', async () => {
    const draft = await home.json(['edition', 'create', '--hub', 'demo', '--event', 'Launch week', '--name', 'A draft', '--start', '+3d', '--end', '+4d']);
    const words = complete('cms edition schedule --hub demo ');
    expect(words).toEqual([draft.id]);
    expect(words).not.toContain(demoEdition);
    // Other verbs still offer every edition.
    expect(complete('cms edition get --hub demo ').sort()).toEqual([demoEdition, draft.id].sort());
  });
});

describe('conflicting flags are refused or said, never silently resolved', () => {
  it('-q with -o json is refused (exit 2); --columns with -o json or --query is a warning', async () => {
    const quiet = await home.run(['hub', 'list', '-q', '-o', 'json']);
    expect(quiet.exitCode).toBe(2);
    expect(JSON.parse(quiet.stderr).error).toMatchObject({ code: 'USAGE', exitCode: 2 });
    expect(quiet.stdout).toBe('');
    const columns = await home.run(['hub', 'list', '--columns', 'name', '-o', 'json']);
    expect(columns.exitCode).toBe(0);
    expect(columns.stderr).toContain('warning: --columns shapes tables');
    expect(JSON.parse(columns.stdout).length).toBeGreaterThan(0);
    const query = await home.run(['hub', 'list', '--columns', 'name', '--query', '[].name']);
    expect(query.stderr).toContain('--columns is ignored');
  });
});

describe('one error vocabulary for scripts', () => {
  it('every JSON error has a code from the documented list, or the service\'s own, and the status when there was one', async () => {
    const cases: [string[], Record<string, unknown>][] = [
      [['hub', 'get', '000000000000000000000000'], { status: 404, exitCode: 1 }],
      [['hub', 'list', '--nope'], { code: 'USAGE', reason: 'unknownOption', exitCode: 2 }],
      [['item', 'list', '--hub', 'r3'], { code: 'USAGE', exitCode: 2 }],
      [['edition', 'unschedule', demoEdition, '--hub', 'demo'], { code: 'EDITION_NOT_SCHEDULED', status: 409, exitCode: 1 }],
      [['hub', 'get', 'no-such-hub-name'], { code: 'NOT_FOUND', exitCode: 1 }],
    ];
    const { ERROR_CODES } = await import('../../src/core/errors.js');
    for (const [args, want] of cases) {
      const res = await home.run([...args, '-o', 'json']);
      const error = JSON.parse(res.stderr).error;
      expect(error, args.join(' ')).toMatchObject(want);
      expect(typeof error.code).toBe('string');
      if (!('code' in want) && error.status === undefined) expect(Object.keys(ERROR_CODES)).toContain(error.code);
    }
  });
});
