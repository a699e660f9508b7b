import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome, type CliResult } from '../helpers/cli.js';

// Standard input arrives when the producer is ready (`jq ... | cms`, `vault read | cms login`):
// every entry point that reads it must wait for the data, in as many chunks as it comes, up to
// the end of the stream. The data is written only after a pause, and split in two.

const home = new CliHome();
const PAUSE_MS = 700;

/** Runs the binary with stdin a pipe that stays empty for a while, then gets `chunks` one by one. */
function runLate(args: string[], chunks: (string | Buffer)[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...home.env, CMS_PROFILE: '', CI: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.on('error', () => {}); // a command that refused early closes its end
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr }));
    const feed = (i: number) => {
      if (i === chunks.length) return child.stdin.end();
      // A pause after the first chunk: the reader must not stop at the first empty read.
      child.stdin.write(chunks[i]!, () => (i === 0 ? setTimeout(() => feed(1), PAUSE_MS / 2) : feed(i + 1)));
    };
    setTimeout(() => feed(0), PAUSE_MS);
  });
}

const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];
const ok = (res: CliResult) => {
  expect(res.stderr).not.toMatch(/EAGAIN|unexpected failure/);
  expect(res.exitCode, res.stderr).toBe(0);
  return res;
};

let itemId: string;
beforeAll(async () => {
  const api = (path: string, body: unknown) => home.json<{ id: string }>(['api', 'POST', path, '--input', '-'], { input: JSON.stringify(body) });
  const hub = await api('/hubs', { name: 'site', label: 'Site' });
  const repo = await api(`/hubs/${hub.id}/content-repositories`, { name: 'docs', label: 'Docs' });
  const uri = 'https://schemas.example.com/late.json';
  const doc = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: uri, title: 'Late', type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } };
  await api(`/hubs/${hub.id}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
  const type = await api(`/hubs/${hub.id}/content-types`, { contentTypeUri: uri, settings: { label: 'Late' } });
  await api(`/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
  itemId = (await api(`/content-repositories/${repo.id}/content-items`, { label: 'One', body: { _meta: { schema: uri }, title: 'one' } })).id;
}, 120_000);
afterAll(() => home.cleanup());

describe('late standard input', () => {
  it('cms api --input -', async () => {
    const res = ok(await runLate(['api', 'POST', '/hubs', '--input', '-', '-o', 'json'], halves('{"name":"late-api","label":"Late"}\n')));
    expect(JSON.parse(res.stdout).name).toBe('late-api');
  });

  it('--body-file - (buildBody: every create and update)', async () => {
    const res = ok(await runLate(['hub', 'create', '--body-file', '-', '-o', 'json'], halves('{"name":"late-body","label":"Late"}')));
    expect(JSON.parse(res.stdout).name).toBe('late-body');
  });

  it('item bulk-update --file -', async () => {
    const current = await home.json<{ version: number }>(['item', 'get', itemId]);
    const update = JSON.stringify([{ id: itemId, version: current.version, label: 'Late label' }]);
    ok(await runLate(['item', 'bulk-update', '--file', '-', '-o', 'json'], halves(update)));
    expect((await home.json<{ label: string }>(['item', 'get', itemId])).label).toBe('Late label');
  });

  it('login --client-secret-stdin, sandbox client create --secret-stdin', async () => {
    ok(await runLate(['sandbox', 'client', 'create', '--id', 'late-client', '--secret-stdin', '--permission', 'all', '--acl', 'hub:site:READ'], halves('late-secret-42\n')));
    ok(await runLate(['--profile', 'late', 'login', '--sandbox', '--client-id', 'late-client', '--client-secret-stdin'], halves('late-secret-42\n')));
    // The saved secret is the one that came late: the client can list its hub.
    const hubs = await home.json<{ name: string }[]>(['--profile', 'late', 'hub', 'list']);
    expect(hubs.map((h) => h.name)).toEqual(['site']);
  });

  it('webhook create and update --secret-stdin', async () => {
    const created = JSON.parse(ok(await runLate(['webhook', 'create', '--hub', 'site', '--label', 'W', '--event', 'content-item.created', '--handler', 'http://127.0.0.1:9/', '--secret-stdin', '-o', 'json'], halves('first-secret\n'))).stdout);
    expect(created.secret).toBe('first-secret');
    const updated = JSON.parse(ok(await runLate(['webhook', 'update', '--hub', 'site', created.id, '--secret-stdin', '-o', 'json'], halves('second-secret\n'))).stdout);
    expect(updated.secret).toBe('second-secret');
  });
});

describe('bad standard input', () => {
  it('an empty secret, two readers of stdin, or a secret flag with --secret-stdin are usage errors (exit 2)', async () => {
    const empty = await runLate(['sandbox', 'client', 'create', '--id', 'x', '--secret-stdin'], ['\n']);
    expect(empty).toMatchObject({ exitCode: 2 });
    expect(empty.stderr).toMatch(/standard input/i);
    const both = await runLate(['webhook', 'create', '--hub', 'site', '--secret-stdin', '--body-file', '-'], ['{}']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/standard input/i);
    const twice = await runLate(['sandbox', 'client', 'create', '--id', 'x', '--secret', 'a', '--secret-stdin'], ['b']);
    expect(twice.exitCode).toBe(2);
  });

  it('more than the cap is refused with exit 2, naming the limit', async () => {
    const mib = Buffer.alloc(1024 * 1024, 0x20);
    const res = await runLate(['api', 'POST', '/hubs', '--input', '-'], [...Array.from({ length: 65 }, () => mib)]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/64 MiB/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
