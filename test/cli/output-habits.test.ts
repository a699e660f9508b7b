import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { schemaDocument } from '../helpers/content.js';

// Issue 13: tables that never cut ids, lists that say when they were cut, -o wide, --columns,
// --no-headers, -q, one rule for single resources, and errors as JSON with -o json.
describe('cms output habits (built binary, embedded sandbox)', () => {
  const home = new CliHome();
  const tty = (width: number) => ({ env: { CMS_FORCE_TTY: String(width) } });
  let repo: string;

  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'out', '--label', 'Output hub'])).exitCode).toBe(0);
    repo = (await home.json(['repo', 'create', '--hub', 'out', '--name', 'things', '--label', 'Things'])).id;
    const schema = schemaDocument('https://ex.com/thing.json');
    const created = await home.run(['schema', 'create', '--hub', 'out', '--file', '-', '--register', '--label', 'Thing', '--repo', 'things'], { input: JSON.stringify(schema) });
    expect(created.exitCode, created.stderr).toBe(0);
    for (let i = 0; i < 5; i++) {
      const res = await home.run(['item', 'create', '--repo', repo, '--hub', 'out', '--schema', 'https://ex.com/thing.json', '--label', `A rather long free-text label number ${i} that goes on and on and on`, '--set', `body.title=t${i}`, '--set', 'body.count=1']);
      expect(res.exitCode, res.stderr).toBe(0);
    }
  }, 120_000);
  afterAll(() => home.cleanup());

  it('a narrow terminal table keeps every id whole and shrinks the free text instead', async () => {
    const ids: string[] = (await home.json(['item', 'list', '--hub', 'out', '--repo', repo])).map((i: { id: string }) => i.id);
    const res = await home.run(['item', 'list', '--hub', 'out', '--repo', repo], tty(80));
    expect(res.exitCode).toBe(0);
    for (const id of ids) expect(res.stdout).toContain(id);
    expect(res.stdout).toContain('…');
    for (const line of res.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('a wide terminal uses its width: nothing is cut when it fits', async () => {
    const res = await home.run(['item', 'list', '--hub', 'out', '--repo', repo], tty(250));
    expect(res.stdout).not.toContain('…');
    expect(res.stdout).toContain('that goes on and on and on');
  });

  it('a list cut by --limit says so on stderr, on a terminal and in a pipe; --all and --limit 0 give everything', async () => {
    for (const opts of [tty(120), {}]) {
      const res = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '--limit', '2'], opts);
      expect(res.exitCode).toBe(0);
      expect(res.stderr).toContain('showing the first 2 of 5');
      expect(res.stderr).toContain('--all');
    }
    const all = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '--all']);
    expect(all.stdout.trim().split('\n')).toHaveLength(5);
    expect(all.stderr).not.toContain('showing');
    const zero = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '--limit', '0']);
    expect(zero.stdout.trim().split('\n')).toHaveLength(5);
    const exact = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '--limit', '5']);
    expect(exact.stderr).not.toContain('showing');
  });

  it('-q prints only ids, one per line, ready for xargs', async () => {
    const ids: string[] = (await home.json(['item', 'list', '--hub', 'out', '--repo', repo])).map((i: { id: string }) => i.id);
    const res = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '-q']);
    expect(res.stdout.trim().split('\n').sort()).toEqual([...ids].sort());
    const one = await home.run(['item', 'get', ids[0]!, '--quiet']);
    expect(one.stdout).toBe(`${ids[0]}\n`);
  });

  it('--columns picks columns by header or field path; --no-headers drops the header row; -o wide adds fields', async () => {
    const res = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '--columns', 'id,body.title', '--no-headers'], tty(200));
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^[0-9a-f-]{36}\s+t\d$/);
    const withHeaders = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '--columns', 'LABEL,status'], tty(200));
    expect(withHeaders.stdout.split('\n')[0]).toMatch(/^LABEL\s+STATUS$/);
    const wide = await home.run(['item', 'list', '--hub', 'out', '--repo', repo, '-o', 'wide'], tty(120));
    expect(wide.stdout.split('\n')[0]).toContain('CREATED DATE');
    expect(wide.stdout).not.toContain('…');
  });

  it('one rule for single resources: important fields first, then the rest, nested values readable', async () => {
    const id = (await home.json(['item', 'list', '--hub', 'out', '--repo', repo]))[0].id;
    const shown = await home.run(['item', 'get', id], tty(120));
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+/);
    expect(shown.stdout).toMatch(/^BODY$/m);
    expect(shown.stdout).toMatch(/^ {2}title: t\d$/m);
    const hub = await home.run(['hub', 'get', 'out'], tty(120));
    expect(hub.stdout.split('\n')[0]).toMatch(/^ID\s+[0-9a-f]{24}$/);
    expect(hub.stdout).toMatch(/^NAME\s+out$/m);
    expect(hub.stdout).toMatch(/^SETTINGS$/m);
    expect(hub.stdout).not.toContain('{"');
  });

  it('errors are one JSON object on stderr with -o json or -o ndjson', async () => {
    const notFound = await home.run(['item', 'get', '00000000-0000-4000-8000-000000000000', '-o', 'json']);
    expect(notFound.exitCode).toBe(1);
    const e = JSON.parse(notFound.stderr).error;
    expect(e).toMatchObject({ status: 404, exitCode: 1, code: 'NOT_FOUND' });
    expect(e.message).toContain('not found');
    const usage = await home.run(['item', 'list', '--bogus', '-o', 'ndjson']);
    expect(usage.exitCode).toBe(2);
    expect(JSON.parse(usage.stderr).error).toMatchObject({ exitCode: 2 });
    const plainText = await home.run(['item', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(plainText.stderr).toMatch(/^error: /);
  });

  it('every verb accepts --hub, even where the id alone suffices', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const verb of [['edition', 'get'], ['item', 'versions'], ['item', 'archive'], ['job', 'get'], ['slot', 'get'], ['event', 'get']]) {
      const res = await home.run([...verb.slice(0, 2), missing, ...verb.slice(2), '--hub', 'out']);
      expect(res.stderr, verb.join(' ')).not.toContain('unknown option');
      expect(res.exitCode, `${verb.join(' ')}: ${res.stderr}`).toBe(1);
    }
    const before = await home.run(['--hub', 'out', 'repo', 'list', '-q']);
    expect(before.stdout.trim()).toBe(repo);
  });

  it('--set-string keeps a value as text where --set would parse it as JSON', async () => {
    const text = await home.json(['item', 'create', '--repo', repo, '--hub', 'out', '--schema', 'https://ex.com/thing.json', '--label', 'typed', '--set-string', 'body.title=42']);
    expect(text.body.title).toBe('42');
    const parsed = await home.run(['item', 'create', '--repo', repo, '--hub', 'out', '--schema', 'https://ex.com/thing.json', '--label', 'typed', '--set', 'body.title=42']);
    expect(parsed.exitCode).toBe(2); // 42 is a number; the schema wants a string
  });
});
