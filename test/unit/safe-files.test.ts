import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderPath, folderProblem, modelFileName, schemaPath, typePath, type FolderInfo } from '../../src/ops/files/content-files.js';
import { FileProblem, MAX_JSON_DEPTH, SafeDir, isSafeId, parseJson } from '../../src/ops/files/safe-files.js';

describe('type and schema file names', () => {
  // URIs that the old slug (cut at 120 characters, separators folded to `_`) mapped to one file.
  const long = `https://ex.com/${'x'.repeat(130)}`;
  const uris = [
    'https://ex.com/a/b.json',
    'http://ex.com/a_b',
    'https://ex.com/a?b',
    'https://ex.com/a/b',
    'https://ex.com/A/B.json',
    'https://EX.com/a/b.json',
    'ftp://ex.com/a/b.json',
    `${long}1`,
    `${long}2`,
  ];

  it('are unique, also ignoring case (case-insensitive file systems)', () => {
    const names = uris.map(modelFileName);
    expect(new Set(names).size).toBe(uris.length);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(uris.length);
  });

  it('are stable: the same URI always gets the same name, readable and short', () => {
    expect(modelFileName('https://ex.com/a/b.json')).toBe(modelFileName('https://ex.com/a/b.json'));
    expect(modelFileName('https://ex.com/a/b.json')).toMatch(/^ex\.com_a_b-[0-9a-f]{12}\.json$/);
    expect(typePath('https://ex.com/a/b.json')).toBe(join('types', modelFileName('https://ex.com/a/b.json')));
    expect(schemaPath('x')).toBe(join('schemas', modelFileName('x')));
    for (const uri of [...uris, '../../../etc/passwd', '', '.', '..', 'a\0b']) {
      const name = modelFileName(uri);
      expect(name.length).toBeLessThanOrEqual(100);
      expect(name).toMatch(/^[\w-][\w.-]*\.json$/);
    }
  });
});

describe('folder paths', () => {
  const f = (id: string, name: string, parentId: string | null = null): FolderInfo => ({ id, name, parentId, repository: 'r' });
  const byId = (...folders: FolderInfo[]) => new Map(folders.map((x) => [x.id, x]));

  it("a name holding '/' and a folder inside another never share a path", () => {
    const slash = byId(f('1', 'a/b'));
    const nested = byId(f('1', 'a'), f('2', 'b', '1'));
    expect(folderPath(slash, '1')).not.toBe(folderPath(nested, '2'));
    expect(folderPath(nested, '2')).toBe('a/b');
    expect(folderPath(slash, '1')).toBe('a%2Fb');
    // The escape itself is escaped: a name that looks escaped stays distinct.
    expect(folderPath(byId(f('1', 'a%2Fb')), '1')).not.toBe(folderPath(slash, '1'));
  });

  it('ends on a cycle instead of looping', () => {
    expect(folderPath(byId(f('1', 'a', '2'), f('2', 'b', '1')), '1')).toBe('b/a');
  });

  it('a cycle, an empty name or a folder without an id is a problem; a tree is not', () => {
    expect(folderProblem([f('1', 'a'), f('2', 'b', '1')])).toBeUndefined();
    expect(folderProblem([f('1', 'a', '2'), f('2', 'b', '1')])).toMatch(/cycle/);
    expect(folderProblem([f('1', 'a', '1')])).toMatch(/cycle/);
    expect(folderProblem([f('1', '')])).toMatch(/empty name/);
    expect(folderProblem([f('1', '  ')])).toMatch(/empty name/);
    expect(folderProblem([{ name: 'x' }])).toMatch(/folders\[0\] has no id/);
    expect(folderProblem('x')).toMatch(/list/);
  });
});

describe('ids from the service', () => {
  it('only ids that are one plain file name are safe', () => {
    for (const id of ['5f1a2b3c4d5e6f7a8b9c0d1e', 'a-b_c.d', '00000000-0000-4000-8000-000000000000']) expect(isSafeId(id)).toBe(true);
    for (const id of ['', '.', '..', '.hidden', '../x', 'a/b', 'a\\b', '/abs', 'a\0b', 'a b', 'x'.repeat(201), 5, null]) expect(isSafeId(id)).toBe(false);
  });
});

describe('SafeDir', () => {
  const root = mkdtempSync(join(tmpdir(), 'cms-safe-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'dir');
  const outside = join(root, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim.json'), 'keep');

  it('refuses paths that leave the directory, and parents that are symlinks leading outside', () => {
    const files = new SafeDir(dir);
    for (const rel of ['../x.json', 'a/../../x.json', '/etc/passwd', 'a\0b']) expect(() => files.path(rel)).toThrow(/not a path inside/);
    symlinkSync(outside, join(dir, 'link'));
    expect(() => files.writeFile('link/victim.json', 'x')).toThrow(FileProblem);
    expect(() => files.remove('link/victim.json')).toThrow(/outside/);
    expect(readFileSync(join(outside, 'victim.json'), 'utf8')).toBe('keep');
  });

  it('writes through an exclusive temporary: a symlink at the name is replaced, its target untouched', () => {
    const files = new SafeDir(dir);
    symlinkSync(join(outside, 'victim.json'), join(dir, 'file.json'));
    files.writeFile('file.json', 'new');
    expect(readFileSync(join(dir, 'file.json'), 'utf8')).toBe('new');
    expect(readFileSync(join(outside, 'victim.json'), 'utf8')).toBe('keep');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('parses JSON with a nesting cap and without quoting the text in errors', () => {
    expect(parseJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, 'f')).toBeInstanceOf(Array);
    expect(() => parseJson(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`, 'f')).toThrow(/nested deeper/);
    expect(parseJson('{"a":"[[[[{{{{"}', 'f')).toEqual({ a: '[[[[{{{{' });
    for (const text of ['root:x:0:0:secret', '{"a": "secret', '{"a":1,}']) {
      try {
        parseJson(text, 'f');
        expect.unreachable();
      } catch (err) {
        expect((err as Error).message).toMatch(/^f is not valid JSON/);
        expect((err as Error).message).not.toMatch(/secret|root/);
      }
    }
  });
});

describe('errorOffset: where JSON goes wrong, whatever JSON.parse says', async () => {
  const { errorOffset, parseJson } = await import('../../src/ops/files/safe-files.js');
  it('points at the first bad character', () => {
    expect(errorOffset('{\n  "a": oops\n}')).toBe(9);
    expect(errorOffset('{"a":1,}')).toBe(7);
    expect(errorOffset('[1, 2')).toBe(5);
    expect(errorOffset('{"a": "x\ny"}')).toBe(8);
    expect(errorOffset('{"a": 01}')).toBe(7);
    expect(errorOffset('{} x')).toBe(3);
  });
  it('parseJson names the line and column, never the content', () => {
    expect(() => parseJson('{\n  "name": "x",\n  "label": oops\n}', 'f.json')).toThrow('f.json is not valid JSON (line 3, column 12)');
    expect(() => parseJson('{"a": [1, 2', 'f.json')).toThrow('f.json is not valid JSON (it ends too early, at line 1, column 12)');
  });
});
