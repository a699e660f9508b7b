import { describe, expect, it } from 'vitest';
import { applySets, commaList } from '../../src/cli/input.js';
import { selectedGroupPath } from '../../src/cli/program.js';
import type { Manifest } from '../../src/cli/define.js';

describe('--set path=value', () => {
  it('builds nested objects and arrays, parsing JSON values', () => {
    const body = applySets({ keep: 1 }, ['body.title=Hello', 'body.count=3', 'body.tags[1]=b', 'body.items[0].name="x"', 'flag=true', 'obj={"a":[1]}', 'text=a=b']);
    expect(body).toEqual({ keep: 1, body: { title: 'Hello', count: 3, tags: [undefined, 'b'], items: [{ name: 'x' }] }, flag: true, obj: { a: [1] }, text: 'a=b' });
  });

  it('rejects assignments without a path', () => {
    expect(() => applySets({}, ['=x'])).toThrow(/path=value/);
    expect(() => applySets({}, ['novalue'])).toThrow(/path=value/);
    expect(() => applySets({}, ['a..b=1'])).toThrow(/field path/);
  });

  it('comma lists may repeat', () => {
    expect(commaList(['READ,EDIT', ' SHARE '])).toEqual(['READ', 'EDIT', 'SHARE']);
    expect(commaList(undefined)).toEqual([]);
  });
});

describe('the command line names a branch of the tree', () => {
  const manifest = {
    version: '0',
    groups: [
      { path: ['repo'], summary: '', aliases: ['repository'] },
      { path: ['repo', 'features'], summary: '' },
      { path: ['hub'], summary: '' },
    ],
    commands: [],
  } as Manifest;
  it.each([
    [['repo', 'features', 'add', 'x', 'slots'], ['repo', 'features']],
    [['--profile', 'hub', 'repo', 'list'], ['repo']],
    [['-o', 'json', 'repository', 'get', 'x'], ['repo']],
    [['--help'], []],
    [['login', '--hub', 'x'], []],
  ])('%j -> %j', (argv, path) => expect(selectedGroupPath(manifest, argv)).toEqual(path));
});
