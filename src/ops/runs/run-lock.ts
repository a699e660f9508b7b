import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { CliError } from '../../core/errors.js';
import type { RunTarget } from './journal.js';
import { targetKey } from '../files/mapping.js';

/**
 * One writing run per target hub at a time: <data dir>/locks/<target>.lock, created exclusively,
 * holding the process id and its start time. Two imports of one directory into one hub would
 * otherwise both find nothing mapped and both create every item. A lock whose process is gone
 * (killed) is taken over; a live holder makes the second run stop before it writes anything.
 */

interface Holder {
  pid: number;
  /** The process's start in clock ticks since boot (/proc/<pid>/stat): a reused pid is not the holder. */
  procStart?: string;
  command: string;
  runId?: string;
  at: string;
}

export class RunLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(
    readonly path: string,
    private holder: Holder,
  ) {
    process.once('exit', this.onExit);
  }

  /** Takes the lock of the target, or fails (exit 1) naming the run that holds it. */
  static take(dataDir: string, target: RunTarget, command: string, runId?: string): RunLock {
    const dir = join(dataDir, 'locks');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${targetKey(target)}.lock`);
    const holder: Holder = { pid: process.pid, procStart: procStart(process.pid), command, runId, at: new Date().toISOString() };
    const text = JSON.stringify(holder);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
        return new RunLock(path, holder);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const seen = readText(path);
      if (seen === undefined) continue;
      const other = parse(seen);
      if (other && alive(other)) throw held(other, target);
      // A lock left by a killed run, or cut short: moved aside, and removed only if it is still the one judged stale.
      const aside = `${path}.${process.pid}.${randomBytes(3).toString('hex')}.stale`;
      try {
        renameSync(path, aside);
      } catch {
        continue;
      }
      if (readText(aside) === seen) unlinkSync(aside);
      else {
        // Another process took it over in between: its lock goes back.
        try {
          linkSync(aside, path);
        } catch {
          // A third process holds it now; ours is retried.
        }
        unlinkSync(aside);
      }
    }
    const other = parse(readText(path) ?? '');
    throw other ? held(other, target) : new CliError(`Could not take the lock ${path}`, 1, 'Another run may be starting on the same hub; try again.');
  }

  /** Names the run in the lock once its journal exists. */
  setRun(runId: string): void {
    if (this.released) return;
    this.holder = { ...this.holder, runId };
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.holder), { mode: 0o600 });
    renameSync(tmp, this.path);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    process.removeListener('exit', this.onExit);
    const current = parse(readText(this.path) ?? '');
    if (current?.pid === process.pid) {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone.
      }
    }
  }
}

function held(other: Holder, target: RunTarget): CliError {
  const run = other.runId ? `run ${other.runId}, ` : '';
  return new CliError(
    `Another run (${run}cms ${other.command}) is writing to hub ${target.hubId ?? target.apiUrl} (process ${other.pid}, since ${other.at})`,
    1,
    'Wait for it to finish (cms runs), then run this again; two runs into one hub at once would both create the same items.',
  );
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parse(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Holder;
    return typeof h.pid === 'number' ? h : undefined;
  } catch {
    return undefined;
  }
}

function alive(h: Holder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = procStart(h.pid);
  return !h.procStart || !now || now === h.procStart;
}

/** The start time of a process in clock ticks since boot (Linux), undefined elsewhere. */
function procStart(pid: number): string | undefined {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  try {
    const text = readFileSync(stat, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
