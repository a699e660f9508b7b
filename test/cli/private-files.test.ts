import { chmodSync, chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// The data directory holds the sandbox database (with the token signing key) and run journals;
// the config directory holds client secrets and cached tokens. Directories that already exist
// with loose modes are tightened (0700, files 0600); one owned by another user is refused.

const mode = (path: string) => statSync(path).mode & 0o777;
const home = new CliHome();
afterAll(() => home.cleanup());

describe('private data and config directories', () => {
  it('tightens a pre-existing data directory and its database', async () => {
    const data = home.env.CMS_DATA_DIR;
    mkdirSync(data, { recursive: true, mode: 0o755 });
    chmodSync(data, 0o755);
    expect((await home.run(['hub', 'list'])).exitCode).toBe(0);
    // A database left readable by everyone (an older version, a copy, a loose umask).
    chmodSync(data, 0o755);
    chmodSync(join(data, 'sandbox.db'), 0o644);
    expect((await home.run(['hub', 'list'])).exitCode).toBe(0);
    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'sandbox.db'))).toBe(0o600);
  });

  it('tightens a pre-existing config directory and profile file', async () => {
    const config = home.env.CMS_CONFIG_DIR;
    mkdirSync(config, { recursive: true });
    chmodSync(config, 0o777);
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: {} }), { mode: 0o644 });
    chmodSync(join(config, 'config.json'), 0o644);
    expect((await home.run(['--profile', 'p', 'login', '--sandbox'])).exitCode).toBe(0);
    expect(mode(config)).toBe(0o700);
    expect(mode(join(config, 'config.json'))).toBe(0o600);
  });

  it.runIf(process.getuid?.() === 0)('refuses a directory owned by another user: exit 2 with a message', async () => {
    const other = new CliHome();
    try {
      mkdirSync(other.env.CMS_DATA_DIR, { recursive: true, mode: 0o755 });
      chownSync(other.env.CMS_DATA_DIR, 65534, 65534);
      const res = await other.run(['hub', 'list']);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toMatch(/another user/);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      mkdirSync(other.env.CMS_CONFIG_DIR, { recursive: true, mode: 0o700 });
      chownSync(other.env.CMS_CONFIG_DIR, 65534, 65534);
      const login = await other.run(['login', '--sandbox']);
      expect(login.exitCode).toBe(2);
      expect(login.stderr).toMatch(/another user/);
    } finally {
      other.cleanup();
    }
  });
});

describe('files that hold request bodies are 0600 from their creation (24.14)', () => {
  it('sandbox.db, its -wal and -shm while open, and a run journal', async () => {
    const { mkdtempSync, rmSync, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { openDatabase } = await import('../../src/server/core/db.js');
    const { migrations } = await import('../../src/server/migrations.js');
    const { Journal } = await import('../../src/ops/runs/journal.js');
    const dir = mkdtempSync(join(tmpdir(), 'cms-modes-'));
    const umask = process.umask(0o022);
    try {
      const db = openDatabase({ dataDir: dir, migrations });
      db.exec('CREATE TABLE IF NOT EXISTS t (x)');
      db.prepare('INSERT INTO t VALUES (1)').run();
      for (const f of ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm']) {
        expect(existsSync(join(dir, f)), f).toBe(true);
        expect(mode(join(dir, f)), f).toBe(0o600);
      }
      db.close();
      const journal = Journal.start(dir, { command: 'item import', options: {}, target: { apiUrl: 'http://sandbox.localhost', profile: null, hubId: 'a'.repeat(24) } });
      journal.step({ key: 'item:s1', action: 'create', resource: 'item', sourceId: 's1', targetId: 't1', version: 1 });
      expect(mode(join(journal.dir, 'journal.ndjson'))).toBe(0o600);
    } finally {
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
