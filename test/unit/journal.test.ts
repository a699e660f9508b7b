import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, listRuns } from '../../src/ops/runs/journal.js';
import { FileMapping } from '../../src/ops/files/mapping.js';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cms-journal-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const target = { apiUrl: 'http://sandbox.localhost', profile: null, hubId: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
/** The id of a process that has exited: what a killed run leaves behind. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('run journal', () => {
  it('records steps with their before-images; reopening knows what is done and the id mapping', () => {
    const dir = dataDir();
    const journal = Journal.start(dir, { command: 'item import', options: { dir: '/x' }, target });
    journal.step({ key: 'item:s1', action: 'create', resource: 'item', sourceId: 's1', targetId: 't1', version: 1 });
    journal.step({ key: 'item:s2', action: 'update', resource: 'item', sourceId: 's2', targetId: 't2', version: 4, before: { version: 3 } });
    journal.step({ key: 'archive-source:s3', action: 'archive', resource: 'item', sourceId: 's3', targetId: 's3', side: 'source' });
    journal.fail('item:s4', '409 Conflict: taken', 409);

    const reopened = Journal.open(dir, journal.id);
    expect(reopened.meta).toMatchObject({ command: 'item import', options: { dir: '/x' }, status: 'running', pid: process.pid });
    expect(reopened.done('item:s2')).toMatchObject({ action: 'update', before: { version: 3 }, version: 4 });
    expect(reopened.done('item:s4')).toBeUndefined();
    // Steps on the run's source are not target mappings.
    expect([...reopened.mapping('item')]).toEqual([
      ['s1', 't1'],
      ['s2', 't2'],
    ]);
    expect(reopened.steps().map((s) => s.key)).toEqual(['item:s1', 'item:s2', 'archive-source:s3']);
  });

  it('finds steps by key whatever its shape, in the process that wrote them and after reopening', () => {
    const dir = dataDir();
    const journal = Journal.start(dir, { command: 'hub clone', options: {}, target });
    const steps = [
      { key: 'hub', action: 'create', resource: 'hub', targetId: 'h1' },
      { key: 'assign:r1:type1', action: 'assign', resource: 'content-type', targetId: 'type1' },
      { key: 'item:s1', action: 'create', resource: 'item', sourceId: 's1', targetId: 't1', version: 1 },
      // The rest of the key is not the source id, or only ends like it.
      { key: 'folder:f1', action: 'create', resource: 'folder', sourceId: 'other', targetId: 'f9' },
      { key: 'item:xs1', action: 'create', resource: 'item', sourceId: 's1', targetId: 't2', version: 1 },
      { key: 'links:s1', action: 'update', resource: 'item', sourceId: 's1', targetId: 't1', version: 2, before: { version: 1 } },
    ] as const;
    for (const step of steps) journal.step({ ...step, label: 'kept in the file only' });
    for (const j of [journal, Journal.open(dir, journal.id)]) {
      for (const step of steps) expect(j.done(step.key)).toEqual({ t: 'done', ...step });
      expect(j.done('item:')).toBeUndefined();
      expect(j.done('assign:r1')).toBeUndefined();
      expect(j.done('s1')).toBeUndefined();
    }
  });

  it('a line cut short by a kill is ignored; steps appended after a resume are kept', () => {
    const dir = dataDir();
    const journal = Journal.start(dir, { command: 'item import', options: {}, target });
    journal.step({ key: 'item:a', action: 'create', resource: 'item', sourceId: 'a', targetId: 'ta' });
    journal.close();
    appendFileSync(join(journal.dir, 'journal.ndjson'), '{"t":"done","key":"item:b","act');
    const resumed = Journal.open(dir, journal.id);
    expect(resumed.steps().map((s) => s.key)).toEqual(['item:a']);
    resumed.step({ key: 'item:c', action: 'create', resource: 'item', sourceId: 'c', targetId: 'tc' });
    expect(Journal.open(dir, journal.id).steps().map((s) => s.key)).toEqual(['item:a', 'item:c']);
  });

  it('a running run whose process is gone is shown as interrupted and may be resumed', () => {
    const dir = dataDir();
    const journal = Journal.start(dir, { command: 'item import', options: {}, target });
    const metaFile = join(journal.dir, 'meta.json');
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), pid: deadPid() }));
    const reopened = Journal.open(dir, journal.id);
    expect(reopened.status).toBe('interrupted');
    expect(listRuns(dir)[0]).toMatchObject({ id: journal.id, status: 'interrupted' });
    reopened.resume();
    expect(Journal.open(dir, journal.id).meta).toMatchObject({ status: 'running', pid: process.pid });
  });

  it('refuses to resume a run another live process is running', () => {
    const dir = dataDir();
    const journal = Journal.start(dir, { command: 'item import', options: {}, target });
    const metaFile = join(journal.dir, 'meta.json');
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), pid: process.ppid }));
    expect(() => Journal.open(dir, journal.id).resume()).toThrow(/still running/);
  });

  it('finish records the status and counts; runs are listed newest first; unknown ids are usage errors', async () => {
    const dir = dataDir();
    const first = Journal.start(dir, { command: 'item import', options: {}, target });
    first.finish('partial', { created: 2, failed: 1 });
    await new Promise((r) => setTimeout(r, 5));
    const second = Journal.start(dir, { command: 'undo', options: { run: first.id }, target, undoOf: first.id });
    second.finish('completed', { archived: 2 });
    const runs = listRuns(dir);
    expect(runs.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(runs[1]).toMatchObject({ status: 'partial', counts: { created: 2, failed: 1 } });
    expect(runs[0]).toMatchObject({ undoOf: first.id, status: 'completed' });
    expect(() => Journal.open(dir, 'no-such-run')).toThrow(/No run 'no-such-run'/);
    expect(() => Journal.open(dir, '../etc')).toThrow(/No run/);
  });
});

describe('id mapping file', () => {
  it('keeps source -> target ids per target hub across processes; the last line for an id wins', () => {
    const dir = dataDir();
    const mapping = FileMapping.forTarget(dir, target);
    mapping.set('item', 's1', 't1');
    mapping.set('item', 's2', 't2');
    mapping.set('item', 's1', 't3');
    mapping.set('folder', 'f1', 'g1');
    mapping.close();
    appendFileSync(mapping.path, '{"k":"item","s":"s9"');
    const again = FileMapping.forTarget(dir, target);
    expect([...again.all('item')]).toEqual([
      ['s1', 't3'],
      ['s2', 't2'],
    ]);
    again.set('item', 's4', 't4');
    again.close();
    expect(FileMapping.forTarget(dir, target).get('item', 's4')).toBe('t4');
    expect(again.get('folder', 'f1')).toBe('g1');
    // Another hub (or service) has its own file.
    expect(FileMapping.forTarget(dir, { ...target, hubId: 'bbbbbbbbbbbbbbbbbbbbbbbb' }).all('item').size).toBe(0);
    expect(FileMapping.forTarget(dir, { ...target, apiUrl: 'https://api.example.com' }).all('item').size).toBe(0);
  });
});
