import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { schemaDocument } from '../helpers/content.js';

// --columns names a list's (or a record's) columns: a header of the command's own columns, a
// field (what -o wide adds) or a dotted path into one. A name that is none of these is a usage
// error (exit 2) naming it and what there is, not an empty column.
describe('cms --columns refuses columns the command does not offer (built binary, embedded sandbox)', () => {
  const home = new CliHome();
  const tty = { env: { CMS_FORCE_TTY: '200' } };
  let repo: string;
  let empty: string;
  let id: string;

  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'cols', '--label', 'Columns hub'])).exitCode).toBe(0);
    repo = (await home.json(['repo', 'create', '--hub', 'cols', '--name', 'things', '--label', 'Things'])).id;
    empty = (await home.json(['repo', 'create', '--hub', 'cols', '--name', 'nothing', '--label', 'Nothing'])).id;
    const created = await home.run(['schema', 'create', '--hub', 'cols', '--file', '-', '--register', '--label', 'Thing', '--repo', 'things'], { input: JSON.stringify(schemaDocument('https://ex.com/thing.json')) });
    expect(created.exitCode, created.stderr).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await home.json(['item', 'create', '--repo', repo, '--hub', 'cols', '--schema', 'https://ex.com/thing.json', '--label', `thing ${i}`, '--set', `body.title=t${i}`]);
      id = res.id;
    }
  }, 120_000);
  afterAll(() => home.cleanup());

  it('an unknown name is a usage error naming it and the columns there are; nothing is printed', async () => {
    for (const opts of [tty, {}]) {
      const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'nope,id'], opts);
      expect(res.exitCode, res.stderr).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^error: Unknown column 'nope'/);
      // The command's own columns and the fields of its rows (-o wide's) are listed.
      for (const name of ['id', 'label', 'status', 'schema', 'createdDate', 'body']) expect(res.stderr).toContain(name);
      expect(res.stderr).not.toContain('NOPE');
    }
  });

  it('every unknown name is reported, with a suggestion when one is close', async () => {
    const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'id,lable,createdDat,zzz']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("Unknown columns 'lable', 'createdDat', 'zzz'");
    expect(res.stderr).toContain("'lable': did you mean 'label'?");
    expect(res.stderr).toContain("'createdDat': did you mean 'createdDate'");
  });

  it('a dotted path must start at a field of the rows', async () => {
    const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'id,bdy.title']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("'bdy.title'");
    expect(res.stderr).toContain("did you mean 'body'");
  });

  it('a dotted path is a column whatever the rows hold: empty where a row lacks it, not an error decided by which rows came back (issue 26)', async () => {
    // No item has links: the path is still one the type's schema has (an array of content links).
    for (const args of [['--limit', '1'], ['--all']]) {
      const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'label,body.links.0.id,body.count', ...args]);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stderr).not.toMatch(/warning|Unknown|error/);
      for (const line of res.stdout.replace(/\n$/, '').split('\n')) expect(line).toMatch(/^thing \d\t\t$/);
    }
  });

  it('a path no content type schema could have is a warning naming a close one; the column stays, empty', async () => {
    const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'id,body.titel,body._meta.schema']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain("warning: no schema has 'body.titel'");
    expect(res.stderr).toContain("did you mean 'body.title'");
    for (const line of res.stdout.replace(/\n$/, '').split('\n')) expect(line.split('\t')).toEqual([expect.any(String), '', 'https://ex.com/thing.json']);
    const deep = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'id,body.links.0.idd']);
    expect(deep.stderr).toContain("no schema has 'body.links.0.idd'");
  });

  it("a path reads only the rows' own fields, never what every object inherits", async () => {
    const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'id,body.constructor,body.toString']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain("no schema has 'body.constructor'");
    for (const line of res.stdout.replace(/\n$/, '').split('\n')) expect(line).toMatch(/^[0-9a-f-]{36}\t\t$/);
  });

  it('other list commands offer their own columns', async () => {
    const res = await home.run(['repo', 'list', '--hub', 'cols', '--columns', 'name,nope']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("Unknown column 'nope'");
    const hubs = await home.run(['hub', 'list', '--columns', 'nmae']);
    expect(hubs.exitCode).toBe(2);
    expect(hubs.stderr).toContain("did you mean 'name'?");
  });

  it('headers, fields and dotted paths still work, in any case for headers; -o wide is unchanged', async () => {
    const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'ID,label,body.title,createdDate,folderId,schema']);
    expect(res.exitCode, res.stderr).toBe(0);
    const rows = res.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toHaveLength(6);
      expect(row[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(row[2]).toMatch(/^t\d$/);
      expect(row[5]).toBe('https://ex.com/thing.json');
    }
    // A header of -o wide (an inferred field's) names that field.
    const wideHeader = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'id,created date'], tty);
    expect(wideHeader.exitCode, wideHeader.stderr).toBe(0);
    expect(wideHeader.stdout.split('\n')[0]).toMatch(/^ID\s+CREATED DATE$/);
    const wide = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '-o', 'wide'], tty);
    expect(wide.exitCode).toBe(0);
    expect(wide.stdout.split('\n')[0]).toContain('CREATED DATE');
    const wideNamed = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '-o', 'wide', '--columns', 'id,nope']);
    expect(wideNamed.exitCode).toBe(2);
  });

  it('JSON, YAML, NDJSON and --query output ignore --columns, as before', async () => {
    const json = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'nope', '-o', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(2);
    const ndjson = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'nope', '-o', 'ndjson']);
    expect(ndjson.exitCode).toBe(0);
    expect(ndjson.stdout.trim().split('\n')).toHaveLength(2);
    const query = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'nope', '--query', '[].label']);
    expect(query.exitCode).toBe(0);
    expect(query.stdout.trim().split('\n').sort()).toEqual(['thing 0', 'thing 1']);
    const quiet = await home.run(['item', 'list', '--hub', 'cols', '--repo', repo, '--columns', 'nope', '-q']);
    expect(quiet.exitCode).toBe(0);
  });

  it('a single record (often what a write answered) says an unknown name on stderr and leaves it out: exit 0, the write is not made to look failed', async () => {
    const bad = await home.run(['item', 'get', id, '--columns', 'id,nope']);
    expect(bad.exitCode, bad.stderr).toBe(0);
    expect(bad.stderr).toContain("warning: Unknown column 'nope'");
    expect(bad.stdout).toBe(`id\t${id}\n`);
    const created = await home.run(['item', 'create', '--repo', repo, '--hub', 'cols', '--schema', 'https://ex.com/thing.json', '--label', 'made once', '--set', 'body.title=once', '--columns', 'id,nope']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stderr).toContain("Unknown column 'nope'");
    const good = await home.run(['item', 'get', id, '--columns', 'id,body.title']);
    expect(good.exitCode, good.stderr).toBe(0);
    expect(good.stdout).toBe(`id\t${id}\nbody.title\tt1\n`);
  });

  it('an empty list has no fields to check: only its own headers are known, and paths pass', async () => {
    const res = await home.run(['item', 'list', '--hub', 'cols', '--repo', empty, '--columns', 'id,body.title']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
  });
});
