import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, CliHome } from '../helpers/cli.js';
import { serveSandbox } from '../helpers/serve.js';
import { schemaDocument } from '../helpers/content.js';

// Issue 13, "habits of the best CLIs": item edit in $EDITOR, item diff, auth status, version,
// {hub}/{repo} in cms api paths, and --dry-run on every single create/update/delete.
describe('cms habits (built binary, embedded sandbox)', () => {
  const home = new CliHome();
  const noEditor = { EDITOR: undefined, VISUAL: undefined };
  let repo: string;
  let hubId: string;
  /** Fake editors live in a directory with a space: EDITOR is split into words, never run by a shell. */
  const tools = join(home.dir, 'my tools');
  const editor = join(tools, 'editor.mjs');
  const record = join(home.dir, 'editor-record.json');

  const newItem = async (title: string): Promise<string> => {
    const res = await home.json(['item', 'create', '--repo', repo, '--hub', 'hab', '--schema', 'https://ex.com/hab.json', '--label', title, '--set', `body.title=${title}`, '--set', 'body.count=1']);
    return res.id;
  };
  /** Runs `cms item edit` with a fake editor that writes `content` into the file it is given. */
  const edit = (id: string, content: string | null, extra: Record<string, string> = {}, args: string[] = []) => {
    const contentFile = join(home.dir, `content-${Math.random().toString(36).slice(2)}.json`);
    if (content !== null) writeFileSync(contentFile, content);
    return home.run(['item', 'edit', id, ...args], {
      env: { ...noEditor, EDITOR: `"${process.execPath}" '${editor}' --from ${content === null ? '-' : `'${contentFile}'`}`, EDIT_RECORD: record, CMS_BIN: BIN, ...extra },
    });
  };

  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'hab', '--label', 'Habits hub'])).exitCode).toBe(0);
    hubId = (await home.json(['hub', 'get', 'hab'])).id;
    repo = (await home.json(['repo', 'create', '--hub', 'hab', '--name', 'things', '--label', 'Things'])).id;
    const created = await home.run(['schema', 'create', '--hub', 'hab', '--file', '-', '--register', '--label', 'Hab', '--repo', 'things'], { input: JSON.stringify(schemaDocument('https://ex.com/hab.json')) });
    expect(created.exitCode, created.stderr).toBe(0);
    mkdirSync(tools, { recursive: true });
    // The fake editor: records the file it got (and its modes), then writes the prepared content
    // (or leaves the file as it is with --from -); CONCURRENT=<id> first changes the item elsewhere.
    writeFileSync(
      editor,
      `import { readFileSync, writeFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
const args = process.argv.slice(2);
const from = args[args.indexOf('--from') + 1];
const file = args[args.length - 1];
writeFileSync(process.env.EDIT_RECORD, JSON.stringify({ args, file, mode: statSync(file).mode & 0o777, dirMode: statSync(dirname(file)).mode & 0o777, before: readFileSync(file, 'utf8') }));
if (process.env.CONCURRENT) execFileSync(process.execPath, [process.env.CMS_BIN, 'item', 'update', process.env.CONCURRENT, '--set', 'body.title=Elsewhere'], { stdio: 'ignore' });
if (process.env.EDITOR_FAILS) process.exit(3);
if (from !== '-') writeFileSync(file, readFileSync(from, 'utf8'));
`,
    );
  }, 120_000);
  afterAll(() => home.cleanup());

  describe('item edit', () => {
    it('opens the body in $EDITOR (a private 0600 file), saves the edit with the version it read', async () => {
      const id = await newItem('Before');
      const item = await home.json(['item', 'get', id]);
      const res = await edit(id, JSON.stringify({ ...item.body, title: 'After' }, null, 2));
      expect(res.exitCode, res.stderr).toBe(0);
      const seen = JSON.parse(readFileSync(record, 'utf8'));
      expect(JSON.parse(seen.before)).toEqual(item.body);
      expect(seen.mode).toBe(0o600);
      expect(seen.dirMode).toBe(0o700);
      // The quoted program path with a space reached the editor as one word, the file as the last.
      expect(seen.args.slice(0, 2)).toEqual(['--from', expect.stringContaining('content-')]);
      expect(existsSync(seen.file)).toBe(false);
      const after = await home.json(['item', 'get', id]);
      expect(after.body.title).toBe('After');
      expect(after.version).toBe(item.version + 1);
    });

    it('an unchanged body is not written, and says so', async () => {
      const id = await newItem('Same');
      const res = await edit(id, null);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stderr).toContain('No changes');
      expect((await home.json(['item', 'get', id])).version).toBe(1);
    });

    it('invalid JSON: exit 2 with line and column, nothing saved, the edit kept in its file', async () => {
      const id = await newItem('Broken');
      const res = await edit(id, '{\n  "title": "x",\n  oops\n}\n');
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toMatch(/line 3, column 3/);
      const kept = /kept in (\S+)/.exec(res.stderr)?.[1];
      expect(kept && readFileSync(kept, 'utf8')).toContain('oops');
      expect((await home.json(['item', 'get', id])).version).toBe(1);
    });

    it("a body that breaks the item's schema is refused before saving (exit 2), the edit kept", async () => {
      const id = await newItem('Schema');
      const item = await home.json(['item', 'get', id]);
      const res = await edit(id, JSON.stringify({ ...item.body, title: 42, count: 'many' }, null, 2), {}, ['--debug']);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain('body.title');
      expect(res.stderr).toContain('body.count');
      expect(res.stderr).not.toMatch(/PATCH/);
      const kept = /kept in (\S+)/.exec(res.stderr)?.[1];
      expect(JSON.parse(readFileSync(kept!, 'utf8')).count).toBe('many');
      expect((await home.json(['item', 'get', id])).version).toBe(1);
    });

    it('a change made meanwhile is reported (409, exit 1), the edit kept, the other change intact', async () => {
      const id = await newItem('Race');
      const item = await home.json(['item', 'get', id]);
      const res = await edit(id, JSON.stringify({ ...item.body, title: 'Mine' }, null, 2), { CONCURRENT: id });
      expect(res.exitCode, res.stderr).toBe(1);
      expect(res.stderr).toMatch(/changed|conflict/i);
      const kept = /kept in (\S+)/.exec(res.stderr)?.[1];
      expect(JSON.parse(readFileSync(kept!, 'utf8')).title).toBe('Mine');
      expect((await home.json(['item', 'get', id])).body.title).toBe('Elsewhere');
    });

    it('a 400 from the service (a schema not assigned to the repository): exit 2, the edit kept', async () => {
      const id = await newItem('Unassigned');
      const item = await home.json(['item', 'get', id]);
      const res = await edit(id, JSON.stringify({ ...item.body, _meta: { ...item.body._meta, schema: 'https://ex.com/nowhere.json' } }, null, 2));
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain('nowhere.json');
      expect(JSON.parse(readFileSync(/kept in (\S+)/.exec(res.stderr)![1]!, 'utf8'))._meta.schema).toBe('https://ex.com/nowhere.json');
    });

    it('an editor that fails: nothing saved, the file kept', async () => {
      const id = await newItem('Fails');
      const res = await edit(id, '{}', { EDITOR_FAILS: '1' });
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toMatch(/kept in \S+/);
      expect((await home.json(['item', 'get', id])).version).toBe(1);
    });

    it('without EDITOR and outside a terminal (or with --no-input / CI): exit 2 with a hint', async () => {
      const id = await newItem('NoEditor');
      for (const extra of [[], ['--no-input']]) {
        const res = await home.run(['item', 'edit', id, ...extra], { env: noEditor });
        expect(res.exitCode).toBe(2);
        expect(res.stderr).toContain('EDITOR');
        expect(res.stderr).toContain('cms item update');
      }
      const ci = await home.run(['item', 'edit', id], { env: { ...noEditor, CI: '1', CMS_FORCE_TTY: '1' } });
      expect(ci.exitCode).toBe(2);
    });
  });

  describe('item diff', () => {
    let id: string;
    beforeAll(async () => {
      id = await newItem('Diffed');
      expect((await home.run(['item', 'update', id, '--set', 'body.title=Second', '--set', 'body.count=2'])).exitCode).toBe(0);
      expect((await home.run(['item', 'update', id, '--set', 'body.title=Third', '--set', 'body.extra=new'])).exitCode).toBe(0);
    });

    it('default: the previous version against the current one, as a unified diff of pretty JSON', async () => {
      const res = await home.run(['item', 'diff', id]);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout).toContain('--- version 2');
      expect(res.stdout).toContain('+++ version 3');
      // The body is one field of the item among others (label, locale, ...): nested one level.
      expect(res.stdout).toContain('-    "title": "Second"');
      expect(res.stdout).toContain('+    "title": "Third"');
      expect(res.stdout).toContain('+    "extra": "new"');
      expect(res.stdout).toContain('@@');
      expect(res.stdout).not.toContain('\u001b[');
    });

    it('--from/--to pick versions; -o json lists the changes (path, from, to); colour on a terminal', async () => {
      const changes = await home.json(['item', 'diff', id, '--from', '1', '--to', '3']);
      expect(changes).toEqual(
        expect.arrayContaining([
          { path: 'body.title', op: 'change', from: 'Diffed', to: 'Third' },
          { path: 'body.extra', op: 'add', to: 'new' },
        ]),
      );
      expect(changes.find((c: { path: string }) => c.path === 'body.count')).toEqual({ path: 'body.count', op: 'change', from: 1, to: 2 });
      expect(changes.find((c: { path: string }) => c.path.startsWith('body._meta'))).toBeUndefined();
      const colour = await home.run(['item', 'diff', id, '--from', '1', '--to', '2'], { env: { CMS_FORCE_TTY: '120', NO_COLOR: undefined } });
      expect(colour.stdout).toContain('\u001b[3');
    });

    it('an item with one version or an unknown version: clear errors', async () => {
      const single = await newItem('Single');
      const one = await home.run(['item', 'diff', single]);
      expect(one.exitCode).toBe(2);
      expect(one.stderr).toContain('only one version');
      const missing = await home.run(['item', 'diff', id, '--from', '9']);
      expect(missing.exitCode).toBe(1);
    });
  });

  describe('auth status and version', () => {
    it('auth status: who, from where, which service, which hub, token expiry; never the token', async () => {
      const res = await home.run(['auth', 'status', '-o', 'json'], { env: { CMS_HUB: 'hab' } });
      expect(res.exitCode, res.stderr).toBe(0);
      const s = JSON.parse(res.stdout);
      expect(s.clientId).toEqual({ value: 'sandbox-admin', source: 'sandbox default' });
      expect(s.hub).toEqual({ name: 'hab', id: hubId, source: 'environment (CMS_HUB)' });
      expect(s.service).toMatchObject({ mode: 'embedded sandbox' });
      expect(Date.parse(s.token.expiresAt)).toBeGreaterThan(Date.now());
      expect(res.stdout).not.toMatch(/eyJ/);
      const flag = JSON.parse((await home.run(['auth', 'status', '-o', 'json', '--hub', hubId], { env: { CMS_HUB: 'hab', CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' } })).stdout);
      expect(flag.hub).toEqual({ name: 'hab', id: hubId, source: 'flag (--hub)' });
      expect(flag.clientId.source).toBe('environment (CMS_CLIENT_ID)');
      const text = await home.run(['auth', 'status', '--hub', 'hab']);
      expect(text.stdout).toContain('sandbox-admin');
      expect(text.stdout).not.toMatch(/eyJ/);
    });

    it('version: CLI, Node, and the service and its schema version', async () => {
      const v = await home.json(['version']);
      const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
      expect(v.cli).toBe(pkg.version);
      expect(v.node).toBe(process.version);
      expect(v.service).toMatchObject({ mode: 'embedded sandbox', version: pkg.version });
      expect(v.service.schemaVersion).toMatch(/^\d+ \(/);
    });
  });

  describe('auth status and version against a served sandbox and another service', () => {
    it('a served sandbox: its versions; the token from the cache file, its expiry shown, never the token', async () => {
      const served = await serveSandbox({ ...home.env, CMS_DATA_DIR: join(home.dir, 'served') });
      try {
        const env = { CMS_API_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
        const v = await home.json(['version'], { env });
        expect(v.service).toMatchObject({ mode: 'served sandbox', apiUrl: served.url, schemaVersion: expect.stringMatching(/^\d+ \(/) });
        const first = await home.json(['auth', 'status'], { env });
        expect(first.service).toMatchObject({ mode: 'served sandbox', apiUrlSource: 'environment (CMS_API_URL)' });
        const again = await home.run(['auth', 'status', '-o', 'json'], { env });
        expect(JSON.parse(again.stdout).token).toMatchObject({ cached: true });
        expect(again.stdout).not.toMatch(/eyJ|sandbox-secret/);
      } finally {
        await served.stop();
      }
    }, 60_000);

    it('a service without /__sandbox/status: its versions are unknown', async () => {
      const server = createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.url === '/oauth/token') return res.end(JSON.stringify({ access_token: 'opaque-token', expires_in: 600 }));
        res.statusCode = 404;
        res.end(JSON.stringify({ errors: [{ message: 'not found' }] }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const v = await home.json(['version'], { env: { CMS_API_URL: url, CMS_CLIENT_ID: 'c', CMS_CLIENT_SECRET: 's' } });
        expect(v.service).toEqual({ mode: 'remote service', apiUrl: url, version: 'unknown', schemaVersion: 'unknown' });
      } finally {
        server.close();
      }
    });
  });

  describe('cms api placeholders', () => {
    it('{hub} and {repo} are filled from --hub, CMS_HUB, --repo', async () => {
      const repos = JSON.parse((await home.run(['api', 'GET', '/hubs/{hub}/content-repositories', '--hub', 'hab'])).stdout);
      expect(repos._embedded['content-repositories'].map((r: { id: string }) => r.id)).toContain(repo);
      const viaEnv = await home.run(['api', 'GET', '/content-repositories/{repo}', '--repo', 'things'], { env: { CMS_HUB: 'hab' } });
      expect(viaEnv.exitCode, viaEnv.stderr).toBe(0);
      expect(JSON.parse(viaEnv.stdout).id).toBe(repo);
    });

    it('an unfillable placeholder is exit 2 with a clear message', async () => {
      const noRepo = await home.run(['api', 'GET', '/content-repositories/{repo}', '--hub', 'hab']);
      expect(noRepo.exitCode).toBe(2);
      expect(noRepo.stderr).toContain('--repo');
      const unknown = await home.run(['api', 'GET', '/hubs/{owner}', '--hub', 'hab']);
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('{owner}');
    });
  });

  describe('--dry-run', () => {
    it('create: prints the request (method, URL, body), sends nothing, exit 0', async () => {
      const res = await home.run(['hub', 'create', '--name', 'never', '--label', 'Never', '--dry-run']);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/^POST \S+\/v2\/content\/hubs\n/);
      expect(res.stdout).toContain('"name": "never"');
      const hubs = await home.json(['hub', 'list']);
      expect(hubs.map((h: { name: string }) => h.name)).not.toContain('never');
    });

    it('update reads (names resolve, the version is read) and prints the PATCH as JSON with -o json', async () => {
      const id = await newItem('Dry');
      const res = await home.run(['item', 'update', id, '--set', 'body.title=Wet', '--dry-run', '-o', 'json']);
      expect(res.exitCode, res.stderr).toBe(0);
      const req = JSON.parse(res.stdout);
      expect(req).toMatchObject({ dryRun: true, method: 'PATCH', body: { version: 1, body: { title: 'Wet' } } });
      expect(req.url).toContain(`/content-items/${id}`);
      expect((await home.json(['item', 'get', id])).body.title).toBe('Dry');
      // The root option goes anywhere on the line, like --hub.
      const before = await home.run(['--dry-run', 'repo', 'update', 'things', '--hub', 'hab', '--label', 'Other']);
      expect(before.exitCode, before.stderr).toBe(0);
      expect(before.stdout).toMatch(/^PATCH /);
    });

    it('delete and cms api: printed, not sent', async () => {
      const del = await home.run(['hub', 'delete', 'hab', '--yes', '--dry-run']);
      expect(del.exitCode, del.stderr).toBe(0);
      expect(del.stdout).toMatch(new RegExp(`^DELETE \\S+/hubs/${hubId}`));
      const api = await home.run(['api', 'POST', '/hubs', '-f', 'name=x', '-f', 'label=X', '--dry-run']);
      expect(api.stdout).toMatch(/^POST /);
      expect((await home.json(['hub', 'list'])).map((h: { name: string }) => h.name)).toEqual(['hab']);
    });

    it('verbs with their own --dry-run keep their plans', async () => {
      const dir = join(home.dir, 'export');
      expect((await home.run(['item', 'export', dir, '--hub', 'hab'])).exitCode).toBe(0);
      const res = await home.run(['item', 'import', dir, '--hub', 'hab', '--repo', 'things', '--dry-run']);
      expect(res.exitCode, res.stderr).toBe(0);
      // Piped, the plan is rows: action, resource, source, label, repository, folder.
      expect(res.stdout).toMatch(/^\w+\titem\t/m);
      expect(res.stdout).not.toMatch(/^POST /m);
    });
  });
});
