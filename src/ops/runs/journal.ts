import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError, NotFound } from '../../core/errors.js';

/**
 * The journal of a mutating run, under <data dir>/runs/<run id>/: meta.json and journal.ndjson.
 * Every step is appended as it completes, with the before-image of what it changed, so a run
 * that died (Ctrl-C, a crash, kill -9) can be resumed without duplicates and any run can be
 * undone. Appends are written straight to the file descriptor (no buffering in the process): a
 * killed process loses nothing it wrote.
 *
 * A write is journaled twice: its intent before the request (with what identifies its outcome:
 * the version it is based on, the create's Idempotency-Key and request), its result after. A
 * kill between the two leaves an intent without a result; resume and undo first ask the service
 * whether it happened (resolve.ts) and journal the answer.
 */

export type RunStatus = 'running' | 'completed' | 'partial' | 'failed' | 'interrupted';

/** Where a run's requests went: enough to reach the same service and hub again (undo, resume). */
export interface RunTarget {
  apiUrl: string;
  profile: string | null;
  hubId?: string;
  /** The hub's name when the run knew it: what `cms runs` shows (the id is in JSON). */
  hubName?: string;
}

export interface RunMeta {
  id: string;
  command: string;
  /** What the run was asked to do (its options), to resume it the same way. */
  options: Record<string, unknown>;
  target: RunTarget;
  /** Where the run read from, when it also changed things there (move archives its sources). */
  source?: RunTarget;
  startedAt: string;
  finishedAt?: string;
  status: RunStatus;
  counts?: Record<string, number>;
  /** Set on an undo run: the run it reverted. */
  undoOf?: string;
  /** The process running it: a 'running' run whose process is gone was interrupted. */
  pid?: number;
}

export type StepAction = 'create' | 'update' | 'unchanged' | 'archive' | 'unarchive' | 'publish' | 'restore' | 'assign' | 'unassign' | 'delete' | 'skip';

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
  /** Created with some links left out (a cycle): a later step completes it. */
  partial?: boolean;
  /** The step changed the run's source rather than its target (move archives its sources). */
  side?: 'source';
  /** For people reading the journal and undo reports. */
  label?: string;
  /** The label the target had before an update: the item a mapping named is shown by name. */
  targetLabel?: string;
  at: string;
}

export interface FailureEntry {
  t: 'fail';
  key: string;
  reason: string;
  status?: number;
  at: string;
}

/** A create that can be sent again: the service answers a repeated Idempotency-Key with the first answer. */
export interface ReplayableRequest {
  method: 'POST';
  path: string;
  query?: Record<string, string | number | boolean>;
  body: unknown;
  idempotencyKey: string;
}

/** A write about to be sent: the step it will be, with `version` the version the write is based on. */
export interface IntentEntry extends Omit<StepEntry, 't' | 'targetId'> {
  t: 'intent';
  /** Unknown for a create until it is answered. */
  targetId?: string;
  /** For creates: the request, to ask the service (by replaying it) what it made. */
  request?: ReplayableRequest;
  /** Fields the resource has once the write happened (e.g. status after an archive). */
  expect?: Record<string, unknown>;
}

/** An intent whose write the service never applied (found out after a kill). */
export interface UnsentEntry {
  t: 'unsent';
  key: string;
  at: string;
}

export type JournalEntry = StepEntry | FailureEntry | IntentEntry | UnsentEntry;

export const runsDir = (dataDir: string) => join(dataDir, 'runs');

/** A completed step as a run looks it up: without the words and time kept for people reading the journal. */
export type DoneStep = Omit<StepEntry, 'label' | 'at'>;

/**
 * The completed steps of a run by key, one per unit of work (several per item of a bulk run), with
 * only what a run looks up: the file has the rest. A key is `<kind>:<rest>`, and the rest is most
 * often the step's source id: such a step is filed under its kind by that id, a string the run
 * keeps anyway, rather than under a key string of its own.
 */
class DoneSteps {
  private readonly byKind = new Map<string, Map<string, Omit<DoneStep, 'key'>>>();

  set({ key, label: _label, at: _at, ...step }: StepEntry): void {
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon + 1);
    const rest = step.sourceId !== undefined && key.length === colon + 1 + step.sourceId.length && key.endsWith(step.sourceId) ? step.sourceId : key.slice(colon + 1);
    let steps = this.byKind.get(kind);
    if (!steps) this.byKind.set(kind, (steps = new Map()));
    steps.set(rest, step);
  }

  get(key: string): DoneStep | undefined {
    const colon = key.indexOf(':');
    const step = this.byKind.get(key.slice(0, colon + 1))?.get(key.slice(colon + 1));
    return step && { key, ...step };
  }

  *values(): Iterable<Omit<DoneStep, 'key'>> {
    for (const steps of this.byKind.values()) yield* steps.values();
  }
}

export class Journal {
  private readonly doneKeys = new DoneSteps();
  private fd: number | null = null;

  private constructor(
    readonly dir: string,
    readonly meta: RunMeta,
    entries: JournalEntry[],
  ) {
    for (const e of entries) if (e.t === 'done') this.doneKeys.set(e);
  }

  static start(dataDir: string, meta: Omit<RunMeta, 'id' | 'startedAt' | 'status'>): Journal {
    const now = new Date();
    const id = `${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;
    const dir = join(runsDir(dataDir), id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const journal = new Journal(dir, { ...meta, id, startedAt: now.toISOString(), status: 'running', pid: process.pid }, []);
    journal.saveMeta();
    writeFileSync(join(dir, 'journal.ndjson'), '', { mode: 0o600 });
    return journal;
  }

  /** Opens an earlier run to resume or undo it. */
  static open(dataDir: string, id: string): Journal {
    const dir = join(runsDir(dataDir), id);
    if (!/^[\w-]+$/.test(id) || !existsSync(join(dir, 'meta.json'))) {
      throw new NotFound(`No run '${id}' in ${runsDir(dataDir)}`, 'List runs with `cms runs`.');
    }
    return new Journal(dir, readMeta(dir), readEntries(dir));
  }

  get id(): string {
    return this.meta.id;
  }

  /** The status as people should see it: a 'running' run whose process is gone was interrupted. */
  get status(): RunStatus {
    return effectiveStatus(this.meta);
  }

  /** The completed step of a unit of work, if this run already did it. */
  done(key: string): DoneStep | undefined {
    return this.doneKeys.get(key);
  }

  step(entry: Omit<StepEntry, 't' | 'at'>): StepEntry {
    const full: StepEntry = { t: 'done', ...entry, at: new Date().toISOString() };
    this.append(full);
    this.doneKeys.set(full);
    return full;
  }

  /** Journals a write before it is sent. */
  intend(entry: Omit<IntentEntry, 't' | 'at'>): void {
    this.append({ t: 'intent', ...entry, at: new Date().toISOString() });
  }

  /** An intent whose write did not happen: settled, resume does it again. */
  unsent(key: string): void {
    this.append({ t: 'unsent', key, at: new Date().toISOString() });
  }

  /** Intents whose outcome is unknown: no result after them (a failure without an answer settles nothing). */
  pending(): IntentEntry[] {
    const last = new Map<string, IntentEntry | undefined>();
    for (const e of readEntries(this.dir)) {
      if (e.t === 'intent') last.set(e.key, e);
      else if (e.t !== 'fail' || e.status !== undefined) last.set(e.key, undefined);
    }
    return [...last.values()].filter((e): e is IntentEntry => e !== undefined);
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
    for (const e of this.doneKeys.values()) if (e.resource === resource && e.sourceId && !e.side) map.set(e.sourceId, e.targetId);
    return map;
  }

  /** Takes the run over in this process; refuses while another live process still runs it. */
  resume(): void {
    if (this.status === 'running' && this.meta.pid !== process.pid) {
      throw new UsageError(`Run ${this.id} is still running (process ${this.meta.pid})`, 'Wait for it to finish, or stop it first.');
    }
    this.meta.status = 'running';
    this.meta.pid = process.pid;
    delete this.meta.finishedAt;
    this.saveMeta();
  }

  finish(status: RunStatus, counts: Record<string, number>): void {
    this.meta.status = status;
    this.meta.counts = counts;
    this.meta.finishedAt = new Date().toISOString();
    this.saveMeta();
    this.close();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private append(entry: JournalEntry): void {
    this.fd ??= openAppend(join(this.dir, 'journal.ndjson'));
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  private saveMeta(): void {
    // Replaced whole (temporary file, then rename): `cms runs` or an undo reading it meanwhile never sees half of it.
    const tmp = join(this.dir, `meta.json.${process.pid}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(this.meta, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, join(this.dir, 'meta.json'));
  }
}

/**
 * Opens an NDJSON file for appending. A line cut short by a kill is ended first, so the next
 * entry is not glued to it (and lost with it).
 */
export function openAppend(path: string, mode = 0o600): number {
  const fd = openSync(path, 'a+', mode);
  const { size } = fstatSync(fd);
  if (size > 0) {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) writeSync(fd, '\n');
  }
  return fd;
}

function readMeta(dir: string): RunMeta {
  return JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
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

function effectiveStatus(meta: RunMeta): RunStatus {
  return meta.status === 'running' && (meta.pid === undefined || !processAlive(meta.pid)) ? 'interrupted' : meta.status;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every run in the data directory, newest first, with interrupted runs shown as such. */
export function listRuns(dataDir: string): RunMeta[] {
  const dir = runsDir(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'meta.json')))
    .map((name) => readMeta(join(dir, name)))
    .map((meta) => ({ ...meta, status: effectiveStatus(meta) }))
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1));
}
