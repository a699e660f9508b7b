import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, schemaDocument } from '../helpers/content.js';

// CI conventions (issue 25, point 6): under GITHUB_ACTIONS=true a drift check and a bulk run with
// failures write ::error annotations per file at fault (escaped by GitHub's rules) and append a
// Markdown table to $GITHUB_STEP_SUMMARY; elsewhere nothing changes.

const home = new CliHome();
const URI = `${SCHEMA_HOST}/ci-article.json`;
const model = join(home.dir, 'model');
const schemas = join(model, 'schemas');
const types = join(model, 'types');
const summary = join(home.dir, 'summary.md');
const github = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: home.dir };

const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};
const annotations = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('::error '));

beforeAll(async () => {
  for (const hub of ['ci-src', 'ci-dst']) {
    await home.json(['hub', 'create', '--name', hub, '--label', hub]);
    await home.json(['repo', 'create', '--hub', hub, '--name', 'content', '--label', 'content']);
  }
  write(join(schemas, 'article.json'), schemaDocument(URI));
  write(join(types, 'article.json'), { contentTypeUri: URI, settings: { label: 'Article' }, repositories: ['content'] });
  for (const hub of ['ci-src', 'ci-dst']) {
    expect((await home.run(['schema', 'apply', schemas, '--hub', hub])).exitCode).toBe(0);
    expect((await home.run(['type', 'apply', types, '--hub', hub])).exitCode).toBe(0);
  }
});

afterAll(() => home.cleanup());

describe('a drift check under GitHub Actions', () => {
  it('annotates each file at fault, escaped, and appends a table to the step summary', async () => {
    // Drift: the article schema changed in the files, and a new one whose file name and id
    // carry the characters GitHub's commands and Markdown treat as syntax.
    write(join(schemas, 'article.json'), { ...schemaDocument(URI), title: 'Changed' });
    const hostileId = `${SCHEMA_HOST}/ci-new.json?x=1%0A|<b>`;
    write(join(schemas, 'odd, name: 100%.json'), schemaDocument(hostileId));
    const res = await home.run(['schema', 'apply', schemas, '--hub', 'ci-src', '--dry-run', '--exit-code'], { env: github });
    expect(res.exitCode, res.stderr).toBe(1);
    const all = annotations(res.stderr);
    // Two files at fault; the content type's cached copy of the changed schema is refreshed too (a step of no file).
    const lines = all.filter((l) => l.startsWith('::error file='));
    expect(lines).toHaveLength(2);
    expect(all.filter((l) => !l.startsWith('::error file='))).toEqual([expect.stringMatching(/^::error title=schema drift%3A update type-schema::.*ci-article.json \(cached schema\)/)]);
    expect(lines).toContainEqual(expect.stringMatching(/^::error file=model\/schemas\/article\.json,line=1,title=schema drift%3A update schema::.*ci-article\.json.*would be updated/));
    // Properties escape % : , ; data escapes % (and CR LF): one command per line, nothing injected.
    const odd = lines.find((l) => l.includes('odd'))!;
    expect(odd).toMatch(/^::error file=model\/schemas\/odd%2C name%3A 100%25\.json,line=1,title=schema drift%3A create schema::/);
    expect(odd).toContain('ci-new.json?x=1%250A|<b>');
    const table = readFileSync(summary, 'utf8');
    expect(table).toContain('| File | Line | Problem | Details |');
    expect(table).toContain('| `model/schemas/article.json` | 1 | schema drift: update schema |');
    expect(table).toContain('x=1%0A\\|&lt;b&gt;');
    expect(table).not.toContain('<b>');
  });

  it('changes nothing elsewhere: no annotation, no summary written', async () => {
    const outside = join(home.dir, 'not-written.md');
    const res = await home.run(['schema', 'apply', schemas, '--hub', 'ci-src', '--dry-run', '--exit-code'], { env: { GITHUB_STEP_SUMMARY: outside } });
    expect(res.exitCode).toBe(1);
    expect(annotations(res.stderr)).toEqual([]);
    expect(existsSync(outside)).toBe(false);
    const json = await home.run(['schema', 'apply', schemas, '--hub', 'ci-src', '--dry-run', '--exit-code', '-o', 'json'], { env: github });
    // Annotations go to stderr: stdout stays the JSON summary.
    expect(JSON.parse(json.stdout).drift).toBe(true);
  });
});

describe('a bulk run with failures under GitHub Actions', () => {
  it('item import annotates the file of each failed item and tabulates them', async () => {
    for (const label of ['Good', 'Bad']) {
      expect((await home.run(['item', 'create', '--hub', 'ci-src', '--repo', 'content', '--label', label, '--schema', URI, '--set', `body.title=${label}`])).exitCode).toBe(0);
    }
    const dir = join(home.dir, 'export');
    expect((await home.run(['item', 'export', dir, '--hub', 'ci-src'])).exitCode).toBe(0);
    // The Bad item's file breaks its schema (title must be a string): the service refuses it.
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));
    const bad = files.find((f) => readFileSync(f, 'utf8').includes('"Bad"') && JSON.parse(readFileSync(f, 'utf8')).label === 'Bad')!;
    const doc = JSON.parse(readFileSync(bad, 'utf8'));
    doc.body.title = 42;
    writeFileSync(bad, JSON.stringify(doc));
    writeFileSync(summary, '');
    const res = await home.run(['item', 'import', dir, '--hub', 'ci-dst', '-o', 'json'], { env: github });
    expect(res.exitCode, res.stderr).toBe(3);
    const data = JSON.parse(res.stdout);
    expect(data.failures).toEqual([{ id: doc.id, reason: expect.any(String), file: expect.stringContaining(relative(dir, bad)) }]);
    const lines = annotations(res.stderr);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^::error file=${relative(home.dir, bad).replace(/[.]/g, '\\.')},line=1,title=cms item import failed::${doc.id}: `))]);
    const table = readFileSync(summary, 'utf8');
    expect(table).toContain('### cms item import: 1 failed');
    expect(table).toContain(`| \`${relative(home.dir, bad)}\` | 1 | cms item import failed |`);
    // Elsewhere: the same failure, no annotation.
    const plain = await home.run(['item', 'import', dir, '--hub', 'ci-dst']);
    expect(plain.exitCode).toBe(3);
    expect(annotations(plain.stderr)).toEqual([]);
  });
});
