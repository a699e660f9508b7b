import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// Issue 32 points 4, 5 and 9 through the built binary: a pid is not a process (a crashed detached
// sandbox's pid reused by another process), a serve that fails after it listens, and the
// environment `sandbox exec` gives its command.

const homes: CliHome[] = [];
const home = () => {
  const h = new CliHome();
  homes.push(h);
  return h;
};
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  homes.forEach((h) => h.cleanup());
});

/** Running: signal 0 reaches it and it is no zombie. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
};

const waitFor = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return check();
};

const portClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Processes whose command line names this data directory (a served sandbox left behind). */
const servingOn = (dir: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        return cmd.includes('serve') && cmd.includes(dir) && alive(Number(p));
      } catch {
        return false;
      }
    })
    .map(Number);

/** A process of no concern to cms (what a reused pid names). */
const bystander = () => {
  const sleep = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(sleep);
  return sleep;
};

describe('a pid is not a process: sandbox stop and serve --detach after a detached sandbox died', () => {
  it('a crashed sandbox whose pid another process now has: stop signals nothing (exit 1), serve --detach starts', async () => {
    const h = home();
    const started = await h.run(['sandbox', 'serve', '--detach', '--port', '0']);
    expect(started.exitCode, started.stderr).toBe(0);
    const info = JSON.parse(started.stdout) as { pid: number; url: string };
    // It dies without removing its pid file (kill -9, the OOM killer, a reboot)...
    process.kill(info.pid, 'SIGKILL');
    expect(await waitFor(() => !alive(info.pid), 10_000)).toBe(true);
    const pidFile = join(h.env.CMS_DATA_DIR, 'sandbox.pid');
    expect(existsSync(pidFile)).toBe(true);
    // ...and its pid goes to another process: the file is unchanged but for the pid it names.
    const sleep = bystander();
    const record = JSON.parse(readFileSync(pidFile, 'utf8'));
    writeFileSync(pidFile, JSON.stringify({ ...record, pid: sleep.pid }));

    const stopped = await h.run(['sandbox', 'stop']);
    expect(stopped.exitCode, stopped.stderr).toBe(1);
    expect(stopped.stderr).toMatch(/No sandbox is running on/);
    await new Promise((r) => setTimeout(r, 200));
    expect(sleep.exitCode, 'the unrelated process was signalled').toBeNull();
    expect(sleep.signalCode).toBeNull();
    expect(alive(sleep.pid!)).toBe(true);

    // The same stale file in the way of a new detached sandbox: it starts.
    writeFileSync(pidFile, JSON.stringify({ ...record, pid: sleep.pid }));
    const again = await h.run(['sandbox', 'serve', '--detach', '--port', '0']);
    expect(again.exitCode, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout) as { pid: number };
    const waited = await h.run(['sandbox', 'wait', '--timeout', '10s']);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const stop = await h.run(['sandbox', 'stop']);
    expect(stop.exitCode, stop.stderr).toBe(0);
    expect(alive(second.pid)).toBe(false);
    expect(alive(sleep.pid!)).toBe(true);
  }, 60_000);

  it('a pid file naming a live process with no record of when it started (hand-written, or from an older cms) is not proof either', async () => {
    const h = home();
    mkdirSync(h.env.CMS_DATA_DIR, { recursive: true });
    const sleep = bystander();
    writeFileSync(join(h.env.CMS_DATA_DIR, 'sandbox.pid'), JSON.stringify({ pid: sleep.pid, url: 'http://127.0.0.1:9' }));
    const stopped = await h.run(['sandbox', 'stop']);
    expect(stopped.exitCode).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(sleep.pid!)).toBe(true);
  });
});

describe('a serve that fails after it listens stops serving', () => {
  it('serve.json cannot be written (a directory in the way): exit 1 naming the path, the port freed, no process left', async () => {
    const h = home();
    const note = join(h.env.CMS_DATA_DIR, 'serve.json');
    mkdirSync(note, { recursive: true });
    const port = await freePort();
    const res = await h.run(['sandbox', 'serve', '--port', String(port)], { timeout: 20_000 });
    expect(res.exitCode, `still serving after the failure: ${res.stderr}`).toBe(1);
    expect(res.stderr).toContain(note);
    expect(res.stderr).not.toMatch(/unexpected failure/);
    expect(await portClosed(port)).toBe(true);
  }, 30_000);

  it('a full disk (the note is /dev/full) is named as such: exit 1 with the path', async () => {
    const h = home();
    mkdirSync(h.env.CMS_DATA_DIR, { recursive: true });
    const note = join(h.env.CMS_DATA_DIR, 'serve.json');
    symlinkSync('/dev/full', note);
    const port = await freePort();
    const res = await h.run(['sandbox', 'serve', '--port', String(port), '-o', 'json'], { timeout: 20_000 });
    expect(res.exitCode, res.stderr).toBe(1);
    const err = JSON.parse(res.stderr).error;
    expect(err.message).toMatch(/no space left on the device/i);
    expect(err.message).toContain(note);
    expect(err.code).not.toBe('UNEXPECTED');
    expect(await portClosed(port)).toBe(true);
  }, 30_000);

  it('--detach whose pid file cannot be written: exit 1 naming the path, and no orphan left serving', async () => {
    const h = home();
    mkdirSync(join(h.env.CMS_DATA_DIR, 'sandbox.pid.tmp'), { recursive: true });
    const port = await freePort();
    const res = await h.run(['sandbox', 'serve', '--detach', '--port', String(port)], { timeout: 40_000 });
    expect(res.exitCode, res.stderr).toBe(1);
    expect(res.stderr).toContain(join(h.env.CMS_DATA_DIR, 'sandbox.pid'));
    expect(res.stderr).not.toMatch(/unexpected failure/);
    expect(await waitFor(() => servingOn(h.env.CMS_DATA_DIR).length === 0, 5000), `orphans: ${servingOn(h.env.CMS_DATA_DIR)}`).toBe(true);
    expect(await portClosed(port)).toBe(true);
  }, 60_000);
});

describe('sandbox exec: the command reads the sandbox, not what the caller pointed at', () => {
  const PRINT = "console.log(JSON.stringify({ delivery: process.env.CMS_DELIVERY_URL ?? null, hub: process.env.CMS_HUB ?? null, sandbox: process.env.CMS_SANDBOX_URL }))";
  const caller = { CMS_DELIVERY_URL: 'https://{hubName}.cdn.production.example', CMS_HUB: 'production' };

  it("delivery points at the sandbox; the caller's hub is dropped when the sandbox has no such hub", async () => {
    const h = home();
    const res = await h.run(['sandbox', 'exec', '--', process.execPath, '-e', PRINT], { env: caller });
    expect(res.exitCode, res.stderr).toBe(0);
    const seen = JSON.parse(res.stdout.trim().split('\n').pop()!);
    expect(seen.delivery).toBe(`${seen.sandbox}/cdn/{hubName}`);
    expect(seen.hub).toBeNull();
  });

  it("a hub the sandbox holds is kept; a seed's hub wins", async () => {
    const h = home();
    const dir = join(h.dir, 'keep');
    for (const name of ['production', 'other']) expect((await h.run(['hub', 'create', '--name', name, '--label', name], { env: { CMS_DATA_DIR: dir } })).exitCode).toBe(0);
    let res = await h.run(['sandbox', 'exec', '--data-dir', dir, '--', process.execPath, '-e', PRINT], { env: caller });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout.trim().split('\n').pop()!).hub).toBe('production');
    res = await h.run(['sandbox', 'exec', '--data-dir', dir, '--', process.execPath, '-e', PRINT], { env: { ...caller, CMS_HUB: 'elsewhere' } });
    expect(JSON.parse(res.stdout.trim().split('\n').pop()!).hub).toBeNull();
  });

  it('cms item get --delivered under exec reads the sandbox', async () => {
    const h = home();
    const script = `
      set -e
      cms() { "${process.execPath}" "${join(import.meta.dirname, '..', '..', 'bin', 'cms.js')}" "$@"; }
      cms hub create --name shop --label Shop -q >/dev/null
      cat > schema.json <<'JSON'
{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json","type":"object","allOf":[{"$ref":"http://bigcontent.io/cms/schema/v1/core#/definitions/content"}],"properties":{"title":{"type":"string"}}}
JSON
      cms repo create --hub shop --name content --label Content -q >/dev/null
      cms schema create --hub shop --file schema.json --register --label A --repo content -q >/dev/null
      id=$(cms item create --repo content --hub shop --schema https://example.com/a.json --label Hello --set body.title='"from the sandbox"' -q)
      cms item publish $id --hub shop --wait --timeout 20s >/dev/null
      cms item get $id --delivered --hub shop --query content.title
      CMS_HUB=shop cms item get $id --delivered --hub shop --query title
    `;
    const res = await h.run(['sandbox', 'exec', '--', 'bash', '-c', `cd ${JSON.stringify(h.dir)} && ${script}`], { env: caller });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout.trim().split('\n').pop()).toBe('from the sandbox');
  }, 60_000);
});
