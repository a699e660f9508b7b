import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { targetKey } from '../../src/ops/files/mapping.js';
import { RunLock } from '../../src/ops/runs/run-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cms-lock-'));
  dirs.push(d);
  return d;
};
const target = { apiUrl: 'http://sandbox.localhost', profile: null, hubId: 'hub1' };
const lockFile = (dir: string) => join(dir, 'locks', `${targetKey(target)}.lock`);
const plant = (dir: string, holder: Record<string, unknown>) => {
  mkdirSync(join(dir, 'locks'), { recursive: true });
  writeFileSync(lockFile(dir), JSON.stringify({ command: 'item import', at: '2025-01-01T00:00:00Z', ...holder }));
};

describe('run lock of a target hub', () => {
  it('is exclusive while held and gone once released', () => {
    const dir = dataDir();
    const lock = RunLock.take(dir, target, 'item import');
    lock.setRun('run-1');
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8'))).toMatchObject({ pid: process.pid, runId: 'run-1' });
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
    RunLock.take(dir, target, 'item import').release();
  });

  it('refuses a second run while a live process holds it, naming the holder', () => {
    const dir = dataDir();
    plant(dir, { pid: process.ppid, runId: 'run-9' });
    expect(() => RunLock.take(dir, target, 'item import')).toThrow(/Another run \(run run-9, cms item import\) is writing to hub hub1 \(process \d+/);
  });

  it('takes over a lock left by a dead process, a reused pid or a cut-short file', () => {
    const dir = dataDir();
    plant(dir, { pid: spawnSync(process.execPath, ['-e', '0']).pid });
    RunLock.take(dir, target, 'item import').release();
    // The pid is alive, but it is another process than the one that took the lock.
    plant(dir, { pid: process.ppid, procStart: '1' });
    RunLock.take(dir, target, 'item import').release();
    mkdirSync(join(dir, 'locks'), { recursive: true });
    writeFileSync(lockFile(dir), '{"pid":');
    RunLock.take(dir, target, 'item import').release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });
});
