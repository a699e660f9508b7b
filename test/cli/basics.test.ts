import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };

describe('cms: help, version and usage errors', () => {
  const home = new CliHome();
  afterAll(() => home.cleanup());

  it('--version prints the package version', async () => {
    const res = await home.run(['--version']);
    expect(res).toMatchObject({ exitCode: 0, stdout: `${pkg.version}\n` });
  });

  it('--help lists the nouns, global options and exit codes', async () => {
    const res = await home.run(['--help']);
    expect(res.exitCode).toBe(0);
    for (const word of ['hub', 'repo', 'sandbox', 'profile', 'login', 'api', 'demo', '--output', '--query', '--profile', 'Exit codes:', '130']) expect(res.stdout).toContain(word);
  });

  it('every verb shows a description and an example', async () => {
    const res = await home.run(['hub', 'create', '--help']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('Create a hub');
    expect(res.stdout).toMatch(/Examples:\n\s+\$ cms hub create/);
  });

  it('an unknown command suggests the closest one and exits 2', async () => {
    const res = await home.run(['hub', 'lst']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("unknown command 'lst'");
    expect(res.stderr).toContain('Did you mean list?');
  });

  it('an unknown option suggests the closest one and exits 2', async () => {
    const res = await home.run(['hub', 'list', '--limt', '3']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('Did you mean --limit?');
  });

  it('a missing argument and a bad option value are usage errors (exit 2)', async () => {
    expect((await home.run(['repo', 'get'])).exitCode).toBe(2);
    const bad = await home.run(['hub', 'list', '--limit', 'many']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('whole number');
    const format = await home.run(['hub', 'list', '-o', 'xml']);
    expect(format.exitCode).toBe(2);
    expect(format.stderr).toContain('table');
  });

  it('aliases work: repository is repo', async () => {
    const res = await home.run(['repository', 'list', '--help']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('List the repositories of a hub');
  });
});

describe('cms on the embedded sandbox: output formats and exit codes', () => {
  const home = new CliHome();
  let hubId: string;
  beforeAll(async () => {
    hubId = (await home.json(['hub', 'create', '--name', 'out', '--label', 'Output hub'])).id;
    await home.run(['repo', 'create', '--hub', 'out', '--name', 'alpha', '--label', 'Alpha']);
    await home.run(['repo', 'create', '--hub', 'out', '--name', 'beta', '--label', 'Beta', '--feature', 'slots']);
  });
  afterAll(() => home.cleanup());

  it('piped tables are tab-separated rows without a header', async () => {
    const res = await home.run(['repo', 'list', '--hub', 'out']);
    expect(res.exitCode).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toEqual([expect.stringMatching(/^[0-9a-f]{24}$/), 'alpha', 'Alpha', '', '']);
    expect(lines[1]!.split('\t')[3]).toBe('slots');
  });

  it('CMS_FORCE_TTY gives a table with headers', async () => {
    const res = await home.run(['repo', 'list', '--hub', 'out'], { env: { CMS_FORCE_TTY: '1' } });
    expect(res.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+LABEL\s+FEATURES\s+LOCALES/);
  });

  it('-o json prints plain resources: an array for a list, an object for a get, no _links', async () => {
    const list = await home.json(['repo', 'list', '--hub', 'out']);
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((r: { name: string }) => r.name)).toEqual(['alpha', 'beta']);
    expect(JSON.stringify(list)).not.toContain('_links');
    const hub = await home.json(['hub', 'get', 'out']);
    expect(hub).toMatchObject({ id: hubId, name: 'out', label: 'Output hub' });
    expect(hub._links).toBeUndefined();
  });

  it('-o ndjson prints one JSON object per line, -o yaml prints YAML', async () => {
    const nd = await home.run(['repo', 'list', '--hub', 'out', '-o', 'ndjson']);
    const rows = nd.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => r.name)).toEqual(['alpha', 'beta']);
    const yaml = await home.run(['hub', 'get', 'out', '-o', 'yaml']);
    expect(yaml.stdout).toContain('name: out');
  });

  it('--query applies JMESPath; scalars print one per line', async () => {
    const res = await home.run(['repo', 'list', '--hub', 'out', '--query', '[].name']);
    expect(res.stdout).toBe('alpha\nbeta\n');
    const res2 = await home.run(['repo', 'list', '--hub', 'out', '--query', "[?contains(features, 'slots')].name", '-o', 'json']);
    expect(JSON.parse(res2.stdout)).toEqual(['beta']);
    const bad = await home.run(['repo', 'list', '--hub', 'out', '--query', '[?']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Invalid --query');
  });

  it('--limit stops after n results', async () => {
    expect(await home.json(['repo', 'list', '--hub', 'out', '--limit', '1'])).toHaveLength(1);
  });

  it('exit code 1 on a conflict, 2 on invalid input, 4 on a permission problem', async () => {
    const dup = await home.run(['hub', 'create', '--name', 'out', '--label', 'Again']);
    expect(dup.exitCode).toBe(1);
    expect(dup.stderr).toContain('409 Conflict');
    expect(dup.stderr).not.toContain('    at '); // no stack trace

    const invalid = await home.run(['hub', 'create', '--name', 'bad name!', '--label', 'x']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain('name');

    expect((await home.run(['sandbox', 'client', 'create', '--id', 'reader', '--secret', 'pw', '--acl', 'hub:out:READ'])).exitCode).toBe(0);
    const denied = await home.run(['hub', 'update', 'out', '--label', 'nope'], { env: { CMS_CLIENT_ID: 'reader', CMS_CLIENT_SECRET: 'pw' } });
    expect(denied.exitCode).toBe(4);
    expect(denied.stderr).toContain('403');
    const badSecret = await home.run(['hub', 'list'], { env: { CMS_CLIENT_ID: 'reader', CMS_CLIENT_SECRET: 'wrong' } });
    expect(badSecret.exitCode).toBe(4);
    expect(badSecret.stderr).toContain('Authentication failed');
  });

  it('a missing resource exits 1 with a hint', async () => {
    const res = await home.run(['repo', 'get', '0123456789abcdef01234567']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('404');
  });

  it('bad input files are usage errors that name the file', async () => {
    const res = await home.run(['hub', 'create', '--body-file', join(home.dir, 'nope.json')]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('nope.json');
    const res2 = await home.run(['hub', 'create', '--body-file', '-'], { input: '{"name": ' });
    expect(res2.exitCode).toBe(2);
    expect(res2.stderr).toContain('not valid JSON');
  });

  it('destructive verbs need --yes when there is no terminal', async () => {
    const res = await home.run(['repo', 'delete', 'alpha', '--hub', 'out']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--yes');
    expect(await home.json(['repo', 'list', '--hub', 'out'])).toHaveLength(2);
  });

  it('--debug traces requests on stderr with secrets redacted', async () => {
    const res = await home.run(['hub', 'list', '--debug']);
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toContain('> GET http://sandbox.localhost/v2/content/hubs');
    expect(res.stderr).toContain('authorization: Bearer [redacted]');
    expect(res.stderr).toContain('client_secret=[redacted]');
    expect(res.stderr).not.toContain('sandbox-secret');
    expect(res.stderr).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/); // no token
  });

  it('cms api makes raw requests with fields, and pages', async () => {
    const created = await home.run(['api', 'POST', '/hubs', '-f', 'name=raw', '-f', 'label=Raw hub']);
    expect(created.exitCode).toBe(0);
    const hub = JSON.parse(created.stdout);
    expect(hub._links.self.href).toContain(`/v2/content/hubs/${hub.id}`);
    const names = await home.run(['api', 'GET', '/hubs', '--paginate', '--query', '[].name']);
    expect(names.stdout.split('\n')).toEqual(expect.arrayContaining(['out', 'raw']));
    const typed = await home.run(['api', 'PATCH', `/hubs/${hub.id}/settings`, '-F', 'devices=[{"name":"Watch","width":200,"height":200,"orientate":true}]', '-i']);
    expect(typed.stdout).toContain('HTTP 204');
    const missing = await home.run(['api', 'GET', '/hubs/0123456789abcdef01234567']);
    expect(missing.exitCode).toBe(1);
  });

  it('closing the pipe early is not an error', async () => {
    const { execaCommand } = await import('execa');
    const res = await execaCommand(`node ${join(import.meta.dirname, '..', '..', 'bin', 'cms.js')} hub get out | head -1`, { shell: true, env: home.env, reject: false });
    expect(res.stderr).not.toContain('EPIPE');
    expect(res.stdout).toMatch(/^id\t/);
  });
});
