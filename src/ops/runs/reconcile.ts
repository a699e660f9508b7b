import type { Place, PlanRow, RunSteps } from './run-steps.js';
import { formatChange, type FieldChange } from './diff.js';
import type { StepAction } from './journal.js';
import type { IdMapping } from '../files/mapping.js';

// Declarative writes of whole resources (hub clone, schema/type apply): each unit compares the
// wanted state with the target's resource and creates it, updates it with the differences, or
// leaves it alone. A dry run sends nothing and plans the same steps, with the field differences;
// a resumed run skips what its journal already holds; one failed unit does not stop the run.

/** Ids of what a dry run would create: `new:<source id or key>`. Never sent to a service. */
export const NEW = 'new:';
export const isPlanned = (id: string | null | undefined): boolean => typeof id === 'string' && id.startsWith(NEW);

export interface Written {
  id: string;
  version?: number;
}

export interface Identity {
  /** Journal key: what resume skips. */
  key: string;
  /** Resource kind in the journal (the id mapping is per kind). */
  resource: string;
  sourceId?: string;
  label: string;
  place?: Place;
}

export interface UnitSpec<T> extends Identity {
  /** The target's resource, when it has one. */
  existing?: T;
  /** What a create sets beyond the resource itself (assignments), shown in plans. */
  initial?: FieldChange[];
  identify(existing: T): Written;
  /** What differs between `existing` and the wanted state (empty: in sync). */
  changes(existing: T): FieldChange[];
  create(): Promise<Written>;
  update(existing: T, changes: FieldChange[]): Promise<Written>;
  /** What an update changes, as it was: undo puts it back. */
  before?(existing: T): Record<string, unknown>;
}

export interface ActionSpec extends Identity {
  action: StepAction;
  targetId: string;
  version?: number;
  before?: Record<string, unknown>;
  changes?: FieldChange[];
}

/** One step as this process saw it: made, planned, or (resumed) found in the journal. */
export interface SyncedStep {
  key: string;
  action: StepAction;
  resource: string;
  label: string;
  targetId: string;
  changes?: string[];
  /** Done by the interrupted run this one resumed. */
  resumed?: boolean;
}

export class Syncer<R extends RunSteps = RunSteps> {
  /** Every step of this process through the syncer, in order. */
  readonly steps: SyncedStep[] = [];
  /** Diff lines per planned or made change (see `planWithChanges`). */
  private readonly changeLines = new Map<string, string[]>();

  constructor(
    readonly run: R,
    /** Source id -> target id per kind: what earlier steps and runs made. */
    readonly ids: IdMapping,
    readonly signal?: AbortSignal,
  ) {}

  get dryRun(): boolean {
    return this.run.dryRun;
  }

  /** Sent with creates: a resumed run that repeats one gets the first answer, not a duplicate. */
  idempotencyKey(key: string): string | undefined {
    return this.run.id ? `${this.run.id}:${key}` : undefined;
  }

  /** Creates, updates or leaves one resource; its target id, or undefined when it failed. */
  unit<T>(spec: UnitSpec<T>): Promise<string | undefined> {
    return this.attempt(spec, async () => {
      const prior = this.resumed(spec);
      if (prior) return prior;
      const { key, resource, sourceId, label, place } = spec;
      const id = { key, resource, sourceId, label, place };
      if (spec.existing === undefined) {
        const made = this.dryRun ? { id: `${NEW}${spec.sourceId ?? spec.key}` } : await spec.create();
        this.record({ ...id, action: 'create', targetId: made.id, version: made.version, changes: spec.initial });
        return made.id;
      }
      const current = spec.identify(spec.existing);
      const changes = spec.changes(spec.existing);
      if (!changes.length) {
        this.record({ ...id, action: 'unchanged', targetId: current.id, version: current.version });
        return current.id;
      }
      const written = this.dryRun ? current : await spec.update(spec.existing, changes);
      this.record({ ...id, action: 'update', targetId: current.id, version: written.version, before: spec.before?.(spec.existing), changes });
      return current.id;
    });
  }

  /** Any other change (archive, assign, schedule): sent unless a dry run, then journaled. */
  act(spec: ActionSpec, send: () => Promise<Written | void>): Promise<string | undefined> {
    return this.attempt(spec, async () => {
      const prior = this.resumed(spec);
      if (prior) return prior;
      const written = this.dryRun ? undefined : await send();
      this.record({ ...spec, version: written ? written.version : spec.version });
      return spec.targetId;
    });
  }

  /** Runs work for one resource; a failure is reported and the run goes on (Ctrl-C still stops it). */
  async attempt<R>(what: Identity, work: () => Promise<R>): Promise<R | undefined> {
    try {
      return await work();
    } catch (err) {
      if (this.signal?.aborted) throw err;
      this.run.fail(what.key, `${what.resource} ${what.label}`, err);
      return undefined;
    }
  }

  /** Journals a step (with its diff for the plan) and remembers the id mapping it makes. */
  record(spec: ActionSpec): void {
    const { key, action, resource, sourceId, targetId, version, before, label, place, changes } = spec;
    this.run.record({ key, action, resource, sourceId, targetId, version, before, label }, { place, tick: true });
    if (sourceId) this.ids.set(resource, sourceId, targetId);
    const lines = changes?.length ? changes.map(formatChange) : undefined;
    if (lines) this.changeLines.set(changeKey(resource, targetId, action), lines);
    this.steps.push({ key, action, resource, label, targetId, changes: lines });
  }

  /** The dry run's plan with the field differences of each update. */
  planWithChanges(): (PlanRow & { changes?: string[] })[] {
    return this.run.plan.map((row) => {
      const lines = this.changeLines.get(changeKey(row.resource, row.targetId ?? '', row.action));
      return lines ? { ...row, changes: lines } : row;
    });
  }

  private resumed(spec: Identity): string | undefined {
    const prior = this.run.done(spec.key);
    if (!prior) return undefined;
    this.run.skip(prior);
    if (spec.sourceId) this.ids.set(spec.resource, spec.sourceId, prior.targetId);
    this.steps.push({ key: spec.key, action: prior.action, resource: spec.resource, label: spec.label, targetId: prior.targetId, resumed: true });
    return prior.targetId;
  }
}

const changeKey = (resource: string, targetId: string, action: string) => `${resource}\n${targetId}\n${action}`;

/** The target resource a source one became: the mapped one if it still exists, else the one named alike. */
export function matchTarget<T extends { id: string }>(ids: IdMapping, kind: string, sourceId: string, targets: readonly T[], alike: (t: T) => boolean): T | undefined {
  const mapped = ids.get(kind, sourceId);
  return (mapped ? targets.find((t) => t.id === mapped) : undefined) ?? targets.find(alike);
}
