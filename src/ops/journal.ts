import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

/**
 * The journal of a mutating run, under <data dir>/runs/<run id>/: meta.json and journal.ndjson.
 * Every step is appended as it completes, with the before-image of what it changed, so a run
 * that died (Ctrl-C, a crash, kill -9) can be resumed without duplicates and any run can be
 * undone. Appends go straight to the file; a killed process loses nothing it wrote.
 */

export type RunStatus = 'running' | 'completed' | 'partial' | 'failed' | 'interrupted';

export interface RunMeta {
  id: string;
  command: string;
  /** What the run was asked to do (its options), to resume it the same way. */
  options: Record<string, unknown>;
  target: { apiUrl: string; profile: string | null; hubId?: string };
  startedAt: string;
  finishedAt?: string;
  status: RunStatus;
  counts?: Record<string, number>;
  /** Set on an undo run: the run it reverted. */
  undoOf?: string;
}

export type StepAction = 'create' | 'update' | 'unchanged' | 'archive' | 'unarchive' | 'publish' | 'restore' | 'assign' | 'skip';

export interface StepEntry {
  t: 'done';
  /** Stable identity of the unit of work (e.g. `item:<source id>`), what resume skips. */
  key: string;
  action: StepAction;
  resource: string;
  sourceId?: string;
  targetId: string;
  /** The target's version after this step (undo refuses when it moved on since). */
  version?: number;
  /** What the step changed, as it was before (for updates: the previous version number and fields). */
  before?: Record<string, unknown>;
  at: string;
}

export interface FailureEntry {
  t: 'fail';
  key: string;
  reason: string;
  status?: number;
  at: string;
}

export type JournalEntry = StepEntry | FailureEntry;

export const runsDir = (dataDir: string) => join(dataDir, 'runs');

export class Journal {
  private readonly doneKeys = new Map<string, StepEntry>();

  private constructor(
    readonly dir: string,
    readonly meta: RunMeta,
    entries: JournalEntry[],
  ) {
    for (const e of entries) if (e.t === 'done') this.doneKeys.set(e.key, e);
  }

  static start(dataDir: string, meta: Omit<RunMeta, 'id' | 'startedAt' | 'status'>): Journal {
    const now = new Date();
    const id = `${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;
    const dir = join(runsDir(dataDir), id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const journal = new Journal(dir, { ...meta, id, startedAt: now.toISOString(), status: 'running' }, []);
    journal.saveMeta();
    writeFileSync(join(dir, 'journal.ndjson'), '');
    return journal;
  }

  /** Opens an earlier run to resume or undo it. */
  static open(dataDir: string, id: string): Journal {
    const dir = join(runsDir(dataDir), id);
    if (!/^[\w-]+$/.test(id) || !existsSync(join(dir, 'meta.json'))) {
      throw new UsageError(`No run '${id}' in ${runsDir(dataDir)}`, 'List runs with `cms runs`.');
    }
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
    return new Journal(dir, meta, readEntries(dir));
  }

  get id(): string {
    return this.meta.id;
  }

  /** The completed step of a unit of work, if this run already did it. */
  done(key: string): StepEntry | undefined {
    return this.doneKeys.get(key);
  }

  step(entry: Omit<StepEntry, 't' | 'at'>): void {
    const full: StepEntry = { t: 'done', ...entry, at: new Date().toISOString() };
    this.append(full);
    this.doneKeys.set(full.key, full);
  }

  fail(key: string, reason: string, status?: number): void {
    this.append({ t: 'fail', key, reason, status, at: new Date().toISOString() });
  }

  /** Every completed step, in order. */
  steps(): StepEntry[] {
    return readEntries(this.dir).filter((e): e is StepEntry => e.t === 'done');
  }

  /** Source id -> target id of the completed steps on one kind of resource. */
  mapping(resource: string): Map<string, string> {
    const map = new Map<string, string>();
    for (const e of this.doneKeys.values()) if (e.resource === resource && e.sourceId) map.set(e.sourceId, e.targetId);
    return map;
  }

  resume(): void {
    this.meta.status = 'running';
    delete this.meta.finishedAt;
    this.saveMeta();
  }

  finish(status: RunStatus, counts: Record<string, number>): void {
    this.meta.status = status;
    this.meta.counts = counts;
    this.meta.finishedAt = new Date().toISOString();
    this.saveMeta();
  }

  private append(entry: JournalEntry): void {
    appendFileSync(join(this.dir, 'journal.ndjson'), `${JSON.stringify(entry)}\n`);
  }

  private saveMeta(): void {
    writeFileSync(join(this.dir, 'meta.json'), `${JSON.stringify(this.meta, null, 2)}\n`, { mode: 0o600 });
  }
}

function readEntries(dir: string): JournalEntry[] {
  const text = readFileSync(join(dir, 'journal.ndjson'), 'utf8');
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // A line cut short by a kill: everything before it is intact.
    }
  }
  return entries;
}

/** Every run in the data directory, newest first. */
export function listRuns(dataDir: string): RunMeta[] {
  const dir = runsDir(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'meta.json')))
    .map((name) => JSON.parse(readFileSync(join(dir, name, 'meta.json'), 'utf8')) as RunMeta)
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
}
