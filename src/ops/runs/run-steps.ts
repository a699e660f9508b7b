import { CliError } from '../../core/errors.js';
import type { DoneStep, IntentEntry, Journal, StepEntry } from './journal.js';
import type { Progress } from './progress.js';
import type { Probe } from './resolve.js';
import type { Failure } from './run-report.js';

// What the engines (import, reconcile) need of a run: steps recorded, resumed and failed. A CLI
// run (bulk-run.ts) adds the journal, progress, lock and summary; an operation inside another
// (a sandbox seeded from an export directory, which loads none of the CLI) uses QuietRun.

/** Key prefix of a step that completes an item written earlier in the run (a cycle's second pass): not counted again. */
export const SECOND_PASS = 'links:';

/** One line of a dry run's plan, or of a run's report. */
export interface PlanRow {
  action: string;
  resource: string;
  sourceId?: string;
  targetId?: string;
  label?: string;
  /** An update's target as it is now named (it may be another item than the source's: a mapping chose it). */
  targetLabel?: string;
  repository?: string;
  folder?: string;
}

/** Where a step's target lives, for plan lines. */
export type Place = Pick<PlanRow, 'repository' | 'folder'>;

export interface RunSteps {
  readonly dryRun: boolean;
  /** The journal's run id (null without a journal). */
  readonly id: string | null;
  readonly journal: Journal | null;
  readonly progress: Progress;
  readonly plan: PlanRow[];
  readonly failures: Failure[];
  /** The file a unit (by its step key) came from, set by runs that read files: failures name it. */
  fileOfKey?: (key: string) => string | undefined;
  /** The completed step of a unit of work when a resumed run already did it. */
  done(key: string): DoneStep | undefined;
  record(step: Omit<StepEntry, 't' | 'at'>, opts?: { place?: Place; tick?: boolean; counted?: boolean }): void;
  intend(intent: Omit<IntentEntry, 't' | 'at'>): void;
  resolvePending(probes: { target: Probe; source?: Probe }): Promise<void>;
  skip(step: DoneStep): void;
  /** A failed unit: the run goes on. */
  fail(key: string, id: string, err: unknown): void;
  note(message: string): void;
}

export function reasonOf(err: unknown): string {
  if (err instanceof CliError) return err.message.replace(/\s*\n\s*/g, '; ');
  return (err as Error)?.message ?? String(err);
}

const SILENT: Progress = { start() {}, total() {}, step() {}, note() {}, stop() {} };

/** A run without journal, progress or output: nothing to resume, failures collected (with their files) for the caller. */
export class QuietRun implements RunSteps {
  readonly dryRun = false;
  readonly id = null;
  readonly journal = null;
  readonly progress = SILENT;
  readonly plan: PlanRow[] = [];
  readonly failures: Failure[] = [];
  fileOfKey?: (key: string) => string | undefined;

  done(): undefined {
    return undefined;
  }
  record(): void {}
  intend(): void {}
  async resolvePending(): Promise<void> {}
  skip(): void {}
  note(): void {}
  fail(key: string, id: string, err: unknown): void {
    const reason = reasonOf(err);
    const file = this.fileOfKey?.(key);
    this.failures.push(file ? { id, reason, file } : { id, reason });
  }
}
