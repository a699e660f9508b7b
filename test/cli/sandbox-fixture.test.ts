import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import Database from '../helpers/sqlite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { serveSandbox } from '../helpers/serve.js';
import { newerSnapshot, olderSnapshot, truncatedSnapshot } from '../helpers/snapshots.js';

// Issue 25 points 2 and 3 through the built binary: snapshot verbs, --seed / --export-on-exit,
// `sandbox exec`, `serve --detach` / `wait` / `stop`, and their bad input.

const homes: CliHome[] = [];
const home = () => {
  const h = new CliHome();
  homes.push(h);
  mkdirSync(join(h.dir, 'work'), { recursive: true });
  return h;
};
afterAll(() => homes.forEach((h) => h.cleanup()));

const portClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** Running: signal 0 reaches it and it is no zombie (nothing may reap a detached process in a container). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
};

describe('cms sandbox snapshot', () => {
  it('saves, lists, restores and deletes named snapshots and files', async () => {
    const h = home();
    expect((await h.run(['hub', 'create', '--name', 'first', '--label', 'First'])).exitCode).toBe(0);
    expect((await h.run(['sandbox', 'snapshot', 'save', 'base'])).exitCode).toBe(0);
    const file = join(h.dir, 'work', 'nested', 'base.snapshot');
    const saved = await h.json(['sandbox', 'snapshot', 'save', file]);
    expect(saved).toMatchObject({ file, counts: { hubs: 1 } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await h.run(['hub', 'create', '--name', 'second', '--label', 'Second'])).exitCode).toBe(0);

    const listed = await h.json<{ name: string; counts: { hubs: number } }[]>(['sandbox', 'snapshot', 'list']);
    expect(listed.map((s) => [s.name, s.counts.hubs])).toEqual([['base', 1]]);
    // Replacing everything asks first; without a terminal, --yes is needed (exit 2).
    const unconfirmed = await h.run(['sandbox', 'snapshot', 'restore', 'base']);
    expect(unconfirmed.exitCode).toBe(2);
    expect((await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name).sort()).toEqual(['first', 'second']);

    expect((await h.run(['sandbox', 'snapshot', 'restore', 'base', '--yes'])).exitCode).toBe(0);
    expect((await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name)).toEqual(['first']);
    expect((await h.run(['hub', 'create', '--name', 'third', '--label', 'Third'])).exitCode).toBe(0);
    expect((await h.run(['sandbox', 'snapshot', 'restore', file, '--yes'])).exitCode).toBe(0);
    expect((await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name)).toEqual(['first']);

    expect((await h.run(['sandbox', 'snapshot', 'delete', 'base'])).exitCode).toBe(0);
    expect(await h.json(['sandbox', 'snapshot', 'list'])).toEqual([]);
    const missing = await h.run(['sandbox', 'snapshot', 'delete', 'base']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/not found|No Snapshot/i);
  });

  it('refuses what is not a usable snapshot with exit 2, changing nothing', async () => {
    const h = home();
    await h.run(['hub', 'create', '--name', 'kept', '--label', 'Kept']);
    const work = join(h.dir, 'work');
    writeFileSync(join(work, 'notes.txt'), 'not a database at all, just some text '.repeat(20));
    let res = await h.run(['sandbox', 'snapshot', 'restore', join(work, 'notes.txt'), '--yes']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/not a sandbox snapshot/);
    expect(res.stderr).not.toMatch(/\n\s+at /);

    await h.run(['sandbox', 'snapshot', 'save', join(work, 'good.snapshot')]);
    const bytes = readFileSync(join(work, 'good.snapshot'));
    writeFileSync(join(work, 'cut.snapshot'), bytes.subarray(0, bytes.length - 4096));
    res = await h.run(['sandbox', 'snapshot', 'restore', join(work, 'cut.snapshot'), '--yes']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/truncated/);

    res = await h.run(['sandbox', 'snapshot', 'restore', join(work, 'nothing-here.snapshot'), '--yes']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/No snapshot at/);

    res = await h.run(['sandbox', 'snapshot', 'restore', 'no-such-name', '--yes']);
    expect(res.exitCode).toBe(1);
    expect((await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name)).toEqual(['kept']);
  });

  it('refuses a snapshot from a newer cms and a truncated one wherever a snapshot is taken (exit 2, nothing changed), and migrates one from an older cms', async () => {
    const h = home();
    const work = join(h.dir, 'work');
    await h.run(['hub', 'create', '--name', 'saved', '--label', 'Saved']);
    expect((await h.run(['sandbox', 'snapshot', 'save', join(work, 'good.snapshot')])).exitCode).toBe(0);
    newerSnapshot(join(work, 'good.snapshot'), join(work, 'newer.snapshot'));
    truncatedSnapshot(join(work, 'good.snapshot'), join(work, 'cut.snapshot'));
    const olderVersion = olderSnapshot(join(work, 'good.snapshot'), join(work, 'older.snapshot'));
    await h.run(['hub', 'create', '--name', 'kept', '--label', 'Kept']);
    const hubs = async () => (await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name).sort();

    for (const [file, reason] of [['newer.snapshot', /was saved by a newer cms \(0\.1\.0, database schema \d+; this cms knows \d+, not 9999-from-the-future\): upgrade cms to restore it/], ['cut.snapshot', /is truncated: \d+ bytes of the \d+ its header records/]] as const) {
      const path = join(work, file);
      for (const args of [
        ['sandbox', 'snapshot', 'restore', path, '--yes'],
        ['sandbox', 'serve', '--port', '0', '--seed', path],
        ['sandbox', 'exec', '--seed', path, '--', process.execPath, '-e', "require('fs').writeFileSync(process.argv[1], 'ran')", join(work, 'ran')],
      ]) {
        const res = await h.run(args);
        expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr, args.join(' ')).toMatch(reason);
        expect(res.stderr).not.toMatch(/\n\s+at /);
        // Nothing changed: the data directory holds what it held, the command never ran.
        expect(await hubs()).toEqual(['kept', 'saved']);
        expect(existsSync(join(work, 'ran'))).toBe(false);
      }
    }

    // Older: migrated on a copy while restored; the file stays as it was.
    const before = readFileSync(join(work, 'older.snapshot'));
    const restored = await h.json(['sandbox', 'snapshot', 'restore', join(work, 'older.snapshot'), '--yes']);
    expect(restored).toMatchObject({ schemaVersion: olderVersion, cmsVersion: '0.0.1', counts: { hubs: 1 } });
    expect(await hubs()).toEqual(['saved']);
    expect(readFileSync(join(work, 'older.snapshot')).equals(before)).toBe(true);
    expect(readdirSync(work).filter((n) => n.startsWith('.migrating-'))).toEqual([]);
    // And as a seed: exec and serve start from it.
    const res = await h.run(['sandbox', 'exec', '--seed', join(work, 'older.snapshot'), '--', process.execPath, BIN, 'hub', 'list', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).map((x: { name: string }) => x.name)).toEqual(['saved']);
  }, 90_000);

  it('a directory as the file to save to: snapshot save and serve --export-on-exit refuse it up front (exit 2), the directory untouched', async () => {
    const h = home();
    const dir = join(h.dir, 'work', 'a-directory');
    mkdirSync(dir);
    writeFileSync(join(dir, 'kept.txt'), 'kept');
    for (const args of [
      ['sandbox', 'snapshot', 'save', dir],
      ['sandbox', 'snapshot', 'save', `${dir}/`],
      ['sandbox', 'serve', '--port', '0', '--export-on-exit', dir],
    ]) {
      const res = await h.run(args, { timeout: 15_000 });
      expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/is a directory/);
      expect(res.stderr).not.toMatch(/unexpected failure|EISDIR/);
      expect(readdirSync(dir)).toEqual(['kept.txt']);
      expect(readdirSync(join(h.dir, 'work')).filter((n) => n.includes('.tmp-'))).toEqual([]);
    }
  });

  it('replaces only a snapshot or an empty file: snapshot save and serve --export-on-exit refuse any other (exit 2, untouched) unless --force', async () => {
    const h = home();
    const work = join(h.dir, 'work');
    const pkg = join(work, 'package.json');
    const pkgText = '{ "name": "my-project", "version": "1.0.0" }\n';
    writeFileSync(pkg, pkgText);
    const otherDb = join(work, 'other.db');
    const other = new Database(otherDb);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    const otherBytes = readFileSync(otherDb);
    for (const [target, bytes] of [[pkg, Buffer.from(pkgText)], [otherDb, otherBytes]] as const) {
      for (const args of [
        ['sandbox', 'snapshot', 'save', target],
        ['sandbox', 'serve', '--port', '0', '--export-on-exit', target],
      ]) {
        const res = await h.run(args, { timeout: 15_000 });
        expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr).toContain(target);
        expect(res.stderr).toMatch(/is not a sandbox snapshot.*not replaced/);
        expect(res.stderr).toMatch(/--force/);
        expect(readFileSync(target).equals(bytes), target).toBe(true);
      }
    }
    expect(readdirSync(work).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // An empty file and a snapshot are replaced; --force replaces anything.
    writeFileSync(join(work, 'empty.snapshot'), '');
    expect((await h.run(['sandbox', 'snapshot', 'save', join(work, 'empty.snapshot')])).exitCode).toBe(0);
    expect((await h.run(['sandbox', 'snapshot', 'save', join(work, 'empty.snapshot')])).exitCode).toBe(0);
    const forced = await h.json(['sandbox', 'snapshot', 'save', pkg, '--force']);
    expect(forced).toMatchObject({ file: pkg, counts: { hubs: 0 } });
    expect(readFileSync(pkg).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('takes files only for the embedded sandbox: a served one keeps names', async () => {
    const h = home();
    const served = await serveSandbox(h.env);
    try {
      const env = { CMS_API_URL: `${served.url}/v2/content`, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
      const res = await h.run(['sandbox', 'snapshot', 'save', './x.snapshot'], { env });
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toMatch(/needs the embedded sandbox/);
      expect((await h.run(['sandbox', 'snapshot', 'save', 'over-http'], { env })).exitCode).toBe(0);
      expect((await h.json<{ name: string }[]>(['sandbox', 'snapshot', 'list'], { env })).map((s) => s.name)).toEqual(['over-http']);
    } finally {
      await served.stop();
    }
  });

  it('a save killed with SIGKILL leaves the previous snapshot whole and no partial snapshot', async () => {
    const h = home();
    await h.run(['hub', 'create', '--name', 'before', '--label', 'Before']);
    const file = join(h.dir, 'work', 'state.snapshot');
    expect((await h.run(['sandbox', 'snapshot', 'save', file])).exitCode).toBe(0);
    const before = readFileSync(file);
    // Enough data that a save takes a while, so the kill lands in the middle of it.
    const db = new Database(join(h.env.CMS_DATA_DIR, 'sandbox.db'));
    db.prepare("INSERT INTO sandbox_state (key, value) VALUES ('test-padding', ?)").run(JSON.stringify('x'.repeat(48 * 1024 * 1024)));
    db.close();
    let killedMidSave = 0;
    for (let round = 0; round < 3; round++) {
      const child = execa(process.execPath, [BIN, 'sandbox', 'snapshot', 'save', file], { env: { ...h.env }, reject: false });
      // Kill as soon as the temporary file exists: in the middle of VACUUM INTO.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !readdirSync(join(h.dir, 'work')).some((n) => n.includes('.tmp-'))) await new Promise((r) => setTimeout(r, 2));
      if (readdirSync(join(h.dir, 'work')).some((n) => n.includes('.tmp-'))) killedMidSave++;
      child.kill('SIGKILL');
      await child;
      // The snapshot is the previous one, byte for byte: never half of the new one.
      expect(readFileSync(file).equals(before)).toBe(true);
    }
    expect(killedMidSave).toBeGreaterThan(0);
    expect(readdirSync(join(h.dir, 'work')).filter((n) => n.endsWith('.snapshot'))).toEqual(['state.snapshot']);
    const restored = await h.run(['sandbox', 'snapshot', 'restore', file, '--yes']);
    expect(restored.exitCode, restored.stderr).toBe(0);
    // The next save clears what the killed ones left.
    await h.run(['hub', 'create', '--name', 'after', '--label', 'After']);
    expect((await h.run(['sandbox', 'snapshot', 'save', file])).exitCode).toBe(0);
    expect(readdirSync(join(h.dir, 'work')).filter((n) => n.includes('.tmp-'))).toEqual([]);
  }, 120_000);
});

const PRINT_ENV = `
const env = process.env;
const token = await fetch(env.CMS_AUTH_URL + '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.CMS_CLIENT_ID, client_secret: env.CMS_CLIENT_SECRET }) }).then((r) => r.json());
const hubs = await fetch(env.CMS_API_URL + '/hubs', { headers: { authorization: 'Bearer ' + token.access_token } });
console.log(JSON.stringify({ api: env.CMS_API_URL, auth: env.CMS_AUTH_URL, hub: env.CMS_HUB ?? null, status: hubs.status, hubs: hubs.status === 200 ? (await hubs.json())._embedded.hubs.map((h) => h.name) : null }));
process.exitCode = Number(process.argv[1] ?? 0);
`;

describe('cms sandbox exec', () => {
  it('runs the command against a sandbox of its own, exits with its code and leaves no port behind', async () => {
    const h = home();
    const res = await h.run(['sandbox', 'exec', '--', process.execPath, '--input-type=module', '-e', PRINT_ENV, '3']);
    expect(res.exitCode, res.stderr).toBe(3);
    const seen = JSON.parse(res.stdout.trim().split('\n').pop()!);
    expect(seen).toMatchObject({ status: 200, hubs: [], hub: null });
    expect(seen.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/content$/);
    expect(await portClosed(Number(new URL(seen.api).port))).toBe(true);
    // In memory: nothing was written to the data directory.
    expect(existsSync(join(h.env.CMS_DATA_DIR, 'sandbox.db'))).toBe(false);
    expect((await h.run(['sandbox', 'exec', '--', process.execPath, '-e', ''])).exitCode).toBe(0);
  });

  it('--cors-origin lets a page of that origin read delivery, as serve does; a malformed one is exit 2', async () => {
    const h = home();
    const probe = `
const origin = new URL(process.env.CMS_SANDBOX_URL).origin;
const ask = (from) => fetch(origin + '/cdn/any-hub/content/id/00000000-0000-0000-0000-000000000000', { method: 'OPTIONS', headers: { origin: from, 'access-control-request-method': 'GET' } });
const listed = await ask('http://localhost:3000');
const other = await ask('http://evil.example');
console.log(JSON.stringify({ listed: listed.headers.get('access-control-allow-origin'), other: other.headers.get('access-control-allow-origin') }));
`;
    const res = await h.run(['sandbox', 'exec', '--cors-origin', 'http://localhost:3000', '--', process.execPath, '--input-type=module', '-e', probe]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout.trim().split('\n').pop()!)).toEqual({ listed: 'http://localhost:3000', other: null });
    const bad = await h.run(['sandbox', 'exec', '--cors-origin', 'localhost:3000/path', '--', process.execPath, '-e', '']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--cors-origin');
  });

  it('seeds from a snapshot (CMS_HUB is its only hub) and injects faults', async () => {
    const h = home();
    await h.run(['hub', 'create', '--name', 'seeded', '--label', 'Seeded']);
    const file = join(h.dir, 'work', 'seed.snapshot');
    await h.run(['sandbox', 'snapshot', 'save', file]);
    let res = await h.run(['sandbox', 'exec', '--seed', file, '--', process.execPath, '--input-type=module', '-e', PRINT_ENV]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout.trim())).toMatchObject({ hub: 'seeded', hubs: ['seeded'] });
    res = await h.run(['sandbox', 'exec', '--faults', '503 100% on GET /v2/content/hubs', '--', process.execPath, '--input-type=module', '-e', PRINT_ENV]);
    expect(JSON.parse(res.stdout.trim()).status).toBe(503);
    // cms itself inside: the environment is all it needs.
    res = await h.run(['sandbox', 'exec', '--seed', file, '--', process.execPath, BIN, 'hub', 'list', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).map((x: { name: string }) => x.name)).toEqual(['seeded']);
  });

  it('forwards SIGTERM to the command and exits with its code', async () => {
    const h = home();
    const script = "process.on('SIGTERM', () => { console.log('got SIGTERM'); process.exit(7); }); setInterval(() => {}, 1000); console.log('ready');";
    const child = execa(process.execPath, [BIN, 'sandbox', 'exec', '--', process.execPath, '-e', script], { env: { ...h.env }, reject: false });
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    child.kill('SIGTERM');
    const res = await child;
    expect(res.exitCode).toBe(7);
    expect(String(res.stdout)).toContain('got SIGTERM');
  });

  it('bad input: no command (exit 2), a command not found (127), a missing or unusable --seed (exit 2)', async () => {
    const h = home();
    let res = await h.run(['sandbox', 'exec']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/Give the command to run after --/);
    // An empty command is no command.
    res = await h.run(['sandbox', 'exec', '--', '']);
    expect(res.exitCode, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/Give the command to run after --/);
    res = await h.run(['sandbox', 'exec', '--', 'no-such-command-cms-test']);
    expect(res.exitCode).toBe(127);
    expect(res.stderr).toMatch(/no-such-command-cms-test: command not found/);
    // Found but not runnable (not executable, a directory): 126, as a shell says it.
    writeFileSync(join(h.dir, 'not-executable'), 'echo hi\n', { mode: 0o644 });
    for (const path of [join(h.dir, 'not-executable'), h.dir]) {
      res = await h.run(['sandbox', 'exec', '--', path]);
      expect(res.exitCode, path).toBe(126);
      expect(res.stderr).toContain(`cms: ${path}: Permission denied`);
    }
    // Ended by a signal: 128 + its number.
    res = await h.run(['sandbox', 'exec', '--', 'sh', '-c', 'kill -TERM $$']);
    expect(res.exitCode).toBe(143);
    res = await h.run(['sandbox', 'exec', '--seed', join(h.dir, 'missing.snapshot'), '--', 'true']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/--seed: no snapshot at/);
    res = await h.run(['sandbox', 'serve', '--port', '0', '--seed', join(h.dir, 'missing.snapshot')]);
    expect(res.exitCode).toBe(2);
    // A directory that is neither a snapshot nor an export directory (see the export-directory seeds below).
    res = await h.run(['sandbox', 'serve', '--port', '0', '--seed', join(h.dir, 'work')]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/is not an export directory/);
    writeFileSync(join(h.dir, 'text.snapshot'), 'hello');
    res = await h.run(['sandbox', 'exec', '--seed', join(h.dir, 'text.snapshot'), '--', 'true']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/not a sandbox snapshot/);
  });
});

describe('cms sandbox serve --detach, wait, stop, --export-on-exit, --seed', () => {
  it('detaches, answers after wait, stops on stop and saves its export', async () => {
    const h = home();
    const out = join(h.dir, 'work', 'exit.snapshot');
    const started = await h.run(['sandbox', 'serve', '--detach', '--port', '0', '--export-on-exit', out]);
    expect(started.exitCode, started.stderr).toBe(0);
    const info = JSON.parse(started.stdout);
    expect(info).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), apiUrl: `${info.url}/v2/content`, clientId: 'sandbox-admin', pid: expect.any(Number) });
    expect(JSON.parse(readFileSync(join(h.env.CMS_DATA_DIR, 'sandbox.pid'), 'utf8')).pid).toBe(info.pid);
    try {
      const waited = await h.run(['sandbox', 'wait', '--timeout', '10s', '-o', 'json']);
      expect(waited.exitCode, waited.stderr).toBe(0);
      expect(JSON.parse(waited.stdout).url).toBe(info.url);
      // A second detached sandbox on the same data directory is refused.
      const again = await h.run(['sandbox', 'serve', '--detach', '--port', '0']);
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toMatch(/already serving/);
      const env = { CMS_API_URL: info.apiUrl, CMS_CLIENT_ID: info.clientId, CMS_CLIENT_SECRET: info.clientSecret };
      expect((await h.run(['hub', 'create', '--name', 'served', '--label', 'Served'], { env })).exitCode).toBe(0);
    } finally {
      const stopped = await h.run(['sandbox', 'stop']);
      expect(stopped.exitCode, stopped.stderr).toBe(0);
    }
    expect(alive(info.pid)).toBe(false);
    expect(await portClosed(Number(new URL(info.url).port))).toBe(true);
    expect(existsSync(join(h.env.CMS_DATA_DIR, 'sandbox.pid'))).toBe(false);
    // The export holds what was done, and seeds another sandbox.
    const other = home();
    const seeded = await serveSandbox(other.env, ['--seed', out]);
    try {
      const env = { CMS_API_URL: `${seeded.url}/v2/content`, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
      expect((await other.json<{ name: string }[]>(['hub', 'list'], { env })).map((x) => x.name)).toEqual(['served']);
    } finally {
      await seeded.stop();
    }
  }, 90_000);

  it('stop with no sandbox running: exit 1; wait for none: exit 8', async () => {
    const h = home();
    let res = await h.run(['sandbox', 'stop']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/No sandbox is running on/);
    // A stale pid file (its process gone) is no sandbox either.
    mkdirSync(h.env.CMS_DATA_DIR, { recursive: true });
    writeFileSync(join(h.env.CMS_DATA_DIR, 'sandbox.pid'), JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:1' }));
    res = await h.run(['sandbox', 'stop']);
    expect(res.exitCode).toBe(1);
    const t0 = Date.now();
    res = await h.run(['sandbox', 'wait', '--timeout', '500ms']);
    expect(res.exitCode).toBe(8);
    expect(res.stderr).toMatch(/No sandbox was serving/);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('a foreground serve saves its export on SIGINT and on SIGTERM', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const h = home();
      const out = join(h.dir, 'work', `${signal}.snapshot`);
      const served = await serveSandbox(h.env, ['--export-on-exit', out]);
      const env = { CMS_API_URL: `${served.url}/v2/content`, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
      expect((await h.run(['hub', 'create', '--name', 'exported', '--label', 'Exported'], { env })).exitCode).toBe(0);
      served.process.kill(signal);
      const res = await served.process;
      expect(res.exitCode, String(res.stderr)).toBe(0);
      expect(String(res.stderr)).toContain(`Saved a snapshot of the sandbox to ${out}`);
      const check = home();
      expect((await check.run(['sandbox', 'snapshot', 'restore', out, '--yes'])).exitCode).toBe(0);
      expect((await check.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name)).toEqual(['exported']);
    }
  }, 90_000);
});

// What a sandbox holds, read over HTTP by a command run under `sandbox exec` (ids left out: a seed
// makes new ones): the hub, its repositories, folders, schemas, types, and each item with its
// folder, locale, delivery key, status and the labels of the items it links to.
const SUMMARY = `
const env = process.env;
const token = (await fetch(env.CMS_AUTH_URL + '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.CMS_CLIENT_ID, client_secret: env.CMS_CLIENT_SECRET }) }).then((r) => r.json())).access_token;
const get = async (path) => { const r = await fetch(env.CMS_API_URL + path, { headers: { authorization: 'Bearer ' + token } }); if (r.status !== 200) throw new Error(path + ' ' + r.status); return r.json(); };
const list = async (path, key) => (await get(path + (path.includes('?') ? '&' : '?') + 'size=100'))._embedded?.[key] ?? [];
const hubs = await list('/hubs', 'hubs');
const hub = hubs.find((h) => h.name === env.CMS_HUB);
const repos = await list('/hubs/' + hub.id + '/content-repositories', 'content-repositories');
const items = [];
const folders = new Map();
for (const repo of repos) {
  for (const f of await list('/content-repositories/' + repo.id + '/folders', 'folders')) folders.set(f.id, repo.name + '/' + f.name);
  for (const i of await list('/content-repositories/' + repo.id + '/content-items?status=ACTIVE,ARCHIVED', 'content-items')) items.push({ ...i, repo: repo.name });
}
const byId = new Map(items.map((i) => [i.id, i]));
const links = (v, out = []) => { if (Array.isArray(v)) v.forEach((x) => links(x, out)); else if (v && typeof v === 'object') { if (v._meta?.schema === 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link') out.push(byId.get(v.id)?.label ?? 'MISSING ' + v.id); else Object.values(v).forEach((x) => links(x, out)); } return out; };
console.log(JSON.stringify({
  hubs: hubs.map((h) => h.name),
  repositories: repos.map((r) => [r.name, r.label, (r.itemLocales ?? []).join(','), (r.features ?? []).join(','), (r.contentTypes ?? []).map((t) => t.contentTypeUri).sort().join(',')]).sort(),
  folders: [...folders.values()].sort(),
  schemas: (await list('/hubs/' + hub.id + '/content-type-schemas', 'content-type-schemas')).map((s) => [s.schemaId, s.validationLevel]).sort(),
  types: (await list('/hubs/' + hub.id + '/content-types', 'content-types')).map((t) => [t.contentTypeUri, t.settings.label]).sort(),
  items: items.map((i) => [i.repo, i.label, i.locale ?? null, i.deliveryKey ?? i.body._meta.deliveryKey ?? null, i.status, i.folderId ? folders.get(i.folderId) : null, links(i.body).sort().join(',')].join(' | ')).sort(),
}));
`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('--seed <export directory> (cms item export, or a dc-cli export)', () => {
  let source: CliHome;
  let exported: string;
  let original: { items: string[]; folders: string[] } & Record<string, unknown>;

  beforeAll(async () => {
    source = home();
    expect((await source.run(['demo'])).exitCode).toBe(0);
    // An archived item too: the seed keeps its status.
    const weekly = (await source.json<{ id: string; label: string }[]>(['item', 'list', '--hub', 'demo', '--repo', 'content'])).find((i) => i.label === 'Weekly roundup')!;
    expect((await source.run(['item', 'archive', weekly.id])).exitCode).toBe(0);
    exported = join(source.dir, 'work', 'export');
    const res = await source.run(['item', 'export', exported, '--hub', 'demo', '--status', 'ACTIVE,ARCHIVED']);
    expect(res.exitCode, res.stderr).toBe(0);
    // The source hub as the same reader sees it: a sandbox served on its data directory.
    const seen = await source.run(['sandbox', 'exec', '--data-dir', source.env.CMS_DATA_DIR, '--', process.execPath, '--input-type=module', '-e', SUMMARY]);
    expect(seen.exitCode, seen.stderr).toBe(0);
    original = JSON.parse(seen.stdout);
    expect(original.items.length).toBe(6);
  }, 120_000);

  it('exec: the hub of the export (CMS_HUB), its repositories, folders, schemas, types and items with their links', async () => {
    const h = home();
    const res = await h.run(['sandbox', 'exec', '--seed', exported, '--', process.execPath, '--input-type=module', '-e', SUMMARY]);
    expect(res.exitCode, res.stderr).toBe(0);
    const seeded = JSON.parse(res.stdout);
    expect(seeded.hubs).toEqual(['demo']);
    expect(seeded).toEqual(original);
    expect(seeded.items.some((i: string) => /Launch announcement .*news\/launch .*\| content\/news \| Launch background/.test(i))).toBe(true);
    expect(seeded.items.some((i: string) => /Weekly roundup .*ARCHIVED/.test(i))).toBe(true);
    // In memory: nothing was written to the data directory.
    expect(existsSync(join(h.env.CMS_DATA_DIR, 'sandbox.db'))).toBe(false);
  }, 60_000);

  it('serve: prints the hub (JSON and text) and replaces what the data directory held', async () => {
    const h = home();
    expect((await h.run(['hub', 'create', '--name', 'before', '--label', 'Before'])).exitCode).toBe(0);
    const served = await serveSandbox(h.env, ['--seed', exported]);
    try {
      const env = { CMS_API_URL: `${served.url}/v2/content`, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret', CMS_HUB: 'demo' };
      expect((await h.json<{ name: string }[]>(['hub', 'list'], { env })).map((x) => x.name)).toEqual(['demo']);
      expect((await h.json<unknown[]>(['item', 'list', '--repo', 'content', '--status', 'ACTIVE,ARCHIVED'], { env })).length).toBe(3);
    } finally {
      await served.stop();
    }
    const json = execa(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '-o', 'json', '--seed', exported], { env: h.env, reject: false });
    const text = execa(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--data-dir', join(h.dir, 'other'), '--seed', exported], { env: h.env, reject: false });
    const firstLine = (child: typeof json, until: RegExp) =>
      new Promise<string>((resolve) => {
        let buf = '';
        child.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          if (until.test(buf)) resolve(buf);
        });
        void child.then(() => resolve(buf));
      });
    const [jsonOut, textOut] = await Promise.all([firstLine(json, /\n/), firstLine(text, /Press Ctrl-C/)]);
    json.kill('SIGTERM');
    text.kill('SIGTERM');
    await Promise.all([json, text]);
    expect(JSON.parse(jsonOut.split('\n')[0]!)).toMatchObject({ hub: 'demo', clientId: 'sandbox-admin' });
    expect(textOut).toMatch(/^\s+Hub\s+demo$/m);
  }, 60_000);

  it('a dc-cli export (schemas, types and content) seeds a hub named after the directory', async () => {
    const h = home();
    const root = join(h.dir, 'work', 'My Site');
    const schemaId = 'https://schemas.example.com/page.json';
    const page = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: schemaId, title: 'Page', type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string', minLength: 1 }, next: { allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link' }] } }, required: ['title'] };
    mkdirSync(join(root, 'content-type-schemas', 'schemas'), { recursive: true });
    mkdirSync(join(root, 'content-types'));
    mkdirSync(join(root, 'content', 'Website Content', 'pages'), { recursive: true });
    writeFileSync(join(root, 'content-type-schemas', 'schemas', 'page-schema.json'), JSON.stringify(page));
    writeFileSync(join(root, 'content-type-schemas', 'page.json'), JSON.stringify({ schemaId, validationLevel: 'CONTENT_TYPE', body: './schemas/page-schema.json' }));
    writeFileSync(join(root, 'content-types', 'page.json'), JSON.stringify({ contentTypeUri: schemaId, settings: { label: 'Page' }, repositories: ['content'] }));
    const link = (id: string) => ({ _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link' }, contentType: schemaId, id });
    const a = '11111111-1111-4111-8111-111111111111';
    const b = '22222222-2222-4222-8222-222222222222';
    writeFileSync(join(root, 'content', 'Website Content', 'Home.json'), JSON.stringify({ id: a, label: 'Home', body: { _meta: { schema: schemaId }, title: 'Home', next: link(b) }, status: 'ACTIVE' }));
    writeFileSync(join(root, 'content', 'Website Content', 'pages', 'About.json'), JSON.stringify({ id: b, label: 'About', body: { _meta: { schema: schemaId }, title: 'About' }, status: 'ACTIVE' }));
    const res = await h.run(['sandbox', 'exec', '--seed', root, '--', process.execPath, '--input-type=module', '-e', 'console.log(process.env.CMS_HUB)']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('my-site');
    const seen = await h.run(['sandbox', 'exec', '--seed', root, '--', process.execPath, '--input-type=module', '-e', SUMMARY]);
    expect(seen.exitCode, seen.stderr).toBe(0);
    const summary = JSON.parse(seen.stdout);
    expect(summary.types).toEqual([[schemaId, 'Page']]);
    expect(summary.items).toEqual(['content | About |  |  | ACTIVE | content/pages | ', 'content | Home |  |  | ACTIVE |  | About']);
    expect(summary.repositories).toEqual([['content', 'Website Content', '', '', schemaId]]);
  }, 60_000);

  it('bad input: neither layout, a schema or an item the service refuses: exit 2 naming the file, nothing served, nothing lost', async () => {
    const h = home();
    expect((await h.run(['hub', 'create', '--name', 'kept', '--label', 'Kept'])).exitCode).toBe(0);
    const work = join(h.dir, 'work');
    // Neither layout.
    mkdirSync(join(work, 'notes'));
    writeFileSync(join(work, 'notes', 'readme.txt'), 'hello');
    let res = await h.run(['sandbox', 'exec', '--seed', join(work, 'notes'), '--', 'true']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/--seed: .*notes is not an export directory: expected manifest\.json \(cms item export\) or a dc-cli export/);
    expect(res.stderr).not.toMatch(/\n\s+at /);

    // A schema the service refuses.
    const badSchema = join(work, 'bad-schema');
    cpSync(exported, badSchema, { recursive: true });
    const schemaFile = readdirSync(join(badSchema, 'schemas')).find((f) => f.includes('article'))!;
    const doc = JSON.parse(readFileSync(join(badSchema, 'schemas', schemaFile), 'utf8'));
    writeFileSync(join(badSchema, 'schemas', schemaFile), JSON.stringify({ ...doc, properties: { ...doc.properties, title: { type: 'no-such-type' } } }));
    const port = await freePort();
    res = await h.run(['sandbox', 'serve', '--port', String(port), '--seed', badSchema]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain(schemaFile);
    expect(res.stderr).toMatch(/Nothing was served/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(await portClosed(port)).toBe(true);
    expect((await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name)).toEqual(['kept']);

    // An item failing validation.
    const badItem = join(work, 'bad-item');
    cpSync(exported, badItem, { recursive: true });
    const itemDir = join(badItem, 'items', 'content');
    const itemFile = readdirSync(itemDir).find((f) => JSON.parse(readFileSync(join(itemDir, f), 'utf8')).label === 'Launch background')!;
    const item = JSON.parse(readFileSync(join(itemDir, itemFile), 'utf8'));
    writeFileSync(join(itemDir, itemFile), JSON.stringify({ ...item, body: { ...item.body, title: '' } }));
    res = await h.run(['sandbox', 'serve', '--port', String(port), '--seed', badItem]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain(join('items', 'content', itemFile));
    expect(await portClosed(port)).toBe(true);
    expect((await h.json<{ name: string }[]>(['hub', 'list'])).map((x) => x.name)).toEqual(['kept']);
    // exec does not run the command.
    res = await h.run(['sandbox', 'exec', '--seed', badItem, '--', process.execPath, '-e', "require('fs').writeFileSync(process.argv[1], 'ran')", join(work, 'ran')]);
    expect(res.exitCode).toBe(2);
    expect(existsSync(join(work, 'ran'))).toBe(false);
  }, 60_000);
});
