import { resolve } from 'node:path';
import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import { ApiError, CliError, PartialFailure, UsageError } from '../../core/errors.js';
import { failing, item, text, type Output } from '../../output/result.js';
import { afterWrite, beforeWrite } from '../../core/kill-switch.js';
import { alignedLines } from '../../output/text-table.js';
import { Journal, type DoneStep, type IntentEntry, type RunTarget, type StepEntry } from './journal.js';
import { PROGRESS_MODES, createProgress, type Progress, type ProgressMode } from './progress.js';
import { resolvePending, type Probe } from './resolve.js';
import { RunLock } from './run-lock.js';
import { reportToGitHub } from './github-actions.js';
import { tsv, type Failure } from './run-report.js';
import { SECOND_PASS, reasonOf, type PlanRow, type Place, type RunSteps } from './run-steps.js';

// What every mutating bulk command shares (import, copy, move, undo, and clone/apply): the
// journal (resume, undo), dry runs, progress, failures that do not stop the run, and the summary
// with its exit code (3 when some items failed).

export const dryRunOption: OptionSpec = { flags: '--dry-run', description: 'print what would change and change nothing (no write request is sent)' };
export const resumeOption: OptionSpec = { flags: '--resume <run-id>', description: 'continue an interrupted run (see cms runs); its options are reused' };
export const progressOption: OptionSpec = { flags: '--progress <mode>', description: 'progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events), none', choices: PROGRESS_MODES, default: 'auto' };
export const concurrencyOption: OptionSpec = { flags: '--concurrency <n>', description: 'requests in flight at most (default: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)', integer: true };

export interface RunFlags {
  dryRun?: boolean;
  resume?: string;
  progress?: ProgressMode;
}

export interface BeginOptions {
  /** The command as typed after `cms`, e.g. 'item import'. */
  command: string;
  /** The options that define the run; a resumed run gets them back from its journal. */
  options: Record<string, unknown>;
  target: RunTarget;
  source?: RunTarget;
  undoOf?: string;
}

// A failed unit: declared with the report that prints it (run-report.ts imports nothing of this file: no cycle).
export type { Failure } from './run-report.js';

// What the engines use of a run, declared with the run that needs none of the CLI (run-steps.ts).
export { SECOND_PASS, reasonOf, type PlanRow, type Place } from './run-steps.js';

/** Actions on items, counted under these names in the summary. */
const ITEM_COUNTS: Record<string, string> = {
  create: 'created',
  update: 'updated',
  unchanged: 'unchanged',
  archive: 'archived',
  unarchive: 'unarchived',
  restore: 'restored',
  publish: 'published',
  skip: 'skipped',
};

export class BulkRun implements RunSteps {
  readonly failures: Failure[] = [];
  /** What the run left as it was on purpose, and why (undo: what an item it refused still needs). */
  readonly kept: Kept[] = [];
  /** The file a unit (by its step key) came from, set by runs that read files: failures name it (and CI annotates it). */
  fileOfKey?: (key: string) => string | undefined;
  /** The error of the latest failure, for commands about a single item that report it as their own. */
  lastError: unknown;
  readonly plan: PlanRow[] = [];
  private readonly counts: Record<string, number> = {};
  private started = Date.now();

  private constructor(
    private readonly ctx: Context,
    readonly command: string,
    readonly journal: Journal | null,
    readonly progress: Progress,
    readonly dryRun: boolean,
    /** One writing run per target hub (none for a dry run). */
    private readonly lock: RunLock | null = null,
  ) {
    for (const step of journal?.steps() ?? []) if (!step.key.startsWith(SECOND_PASS)) this.count(step);
  }

  /**
   * Starts a run, or takes over an interrupted one with --resume (its options come back from
   * the journal). A dry run writes no journal.
   */
  static async begin(ctx: Context, flags: RunFlags, opts: BeginOptions): Promise<BulkRun> {
    const progress = await createProgress(flags.progress ?? 'auto', ctx.io);
    const dataDir = ctx.connection().dataDir;
    if (flags.dryRun) {
      if (flags.resume) throw new UsageError('--dry-run and --resume do not go together', 'A dry run changes nothing, so there is nothing to resume.');
      return new BulkRun(ctx, opts.command, null, progress, true);
    }
    if (flags.resume) {
      const journal = Journal.open(dataDir, flags.resume);
      if (journal.meta.command !== opts.command) throw new UsageError(`Run ${flags.resume} is a '${journal.meta.command}' run, not '${opts.command}'`, `Resume it with: cms ${journal.meta.command} --resume ${flags.resume}`);
      const lock = RunLock.take(dataDir, journal.meta.target, opts.command, journal.id);
      try {
        journal.resume();
      } catch (err) {
        lock.release();
        throw err;
      }
      return new BulkRun(ctx, opts.command, journal, progress, false, lock);
    }
    // The lock first: a refused run leaves no journal behind.
    const lock = RunLock.take(dataDir, opts.target, opts.command);
    const named = (t: RunTarget | undefined) => (t && !t.hubName && ctx.hubName(t.hubId) ? { ...t, hubName: ctx.hubName(t.hubId) } : t);
    const journal = Journal.start(dataDir, { command: opts.command, options: opts.options, target: named(opts.target)!, source: named(opts.source), undoOf: opts.undoOf });
    lock.setRun(journal.id);
    return new BulkRun(ctx, opts.command, journal, progress, false, lock);
  }

  /** The options of the run being resumed (undefined for a new run); a run of another command is a usage error naming it. */
  static resumedOptions(ctx: Context, runId: string | undefined, command: string, given: { dir?: string } = {}): Record<string, unknown> | undefined {
    if (!runId) return undefined;
    const { meta } = Journal.open(ctx.connection().dataDir, runId);
    if (meta.command !== command) throw new UsageError(`Run ${runId} is a '${meta.command}' run, not '${command}'`, `Resume it with: cms ${meta.command} --resume ${runId}`);
    // A run resumes with its own options: a directory typed beside --resume that is not the run's
    // is refused rather than silently ignored (the same one is only redundant).
    if (given.dir !== undefined && typeof meta.options.dir === 'string' && resolve(given.dir) !== meta.options.dir) {
      throw new UsageError(`--resume ${runId} continues the run on ${meta.options.dir}, not on ${given.dir}`, `Drop the directory to resume it (cms ${command} --resume ${runId}), or start a new run on ${given.dir} without --resume.`);
    }
    return meta.options;
  }

  get id(): string | null {
    return this.journal?.id ?? null;
  }

  /** The completed step of a unit of work when a resumed run already did it. */
  done(key: string): DoneStep | undefined {
    return this.journal?.done(key);
  }

  /**
   * Records a completed step: journaled (with its before-image), counted, and in a dry run added
   * to the plan. `tick` moves the progress display (one tick per item, whatever its steps);
   * `counted: false` keeps a step that finishes an earlier one (a cycle's second pass) out of the counts.
   */
  record(step: Omit<StepEntry, 't' | 'at'>, opts: { place?: Place; tick?: boolean; counted?: boolean } = {}): void {
    if (this.journal) afterWrite(step.key);
    this.journal?.step(step);
    if (opts.counted !== false) this.count(step);
    if (this.dryRun) this.plan.push({ action: step.action, resource: step.resource, sourceId: step.sourceId, targetId: step.targetId, label: step.label, ...(step.targetLabel === undefined ? {} : { targetLabel: step.targetLabel }), ...opts.place });
    if (opts.tick) this.progress.step({ key: step.key, action: step.action, ok: true, id: step.targetId });
  }

  /**
   * Journals a write before it is sent (nothing in a dry run), so a kill between the write and
   * its `record` leaves something resume and undo can resolve by asking the service.
   */
  intend(intent: Omit<IntentEntry, 't' | 'at'>): void {
    if (!this.journal) return;
    this.journal.intend(intent);
    beforeWrite(intent.action, intent.key);
  }

  /**
   * A resumed run first settles the writes its killed process sent without journaling their
   * results: asked of the service, journaled and counted (see resolve.ts).
   */
  async resolvePending(probes: { target: Probe; source?: Probe }): Promise<void> {
    if (!this.journal) return;
    const known = this.journal.steps().length;
    const resolved = await resolvePending(this.journal, probes);
    for (const step of this.journal.steps().slice(known)) if (!step.key.startsWith(SECOND_PASS)) this.count(step);
    if (resolved.happened + resolved.unsent) this.note(`settled ${resolved.happened + resolved.unsent} write(s) the interrupted run left unjournaled: ${resolved.happened} had happened`);
  }

  /** A unit of work that already completed in the interrupted run: shown, not redone. */
  skip(step: DoneStep): void {
    this.progress.step({ key: step.key, action: step.action, ok: true, id: step.targetId });
  }

  /** A failed unit: the run goes on; the summary lists it and the exit code becomes 3. */
  fail(key: string, id: string, err: unknown): void {
    const reason = reasonOf(err);
    this.lastError = err;
    this.journal?.fail(key, reason, err instanceof ApiError ? err.status : undefined);
    const file = this.fileOfKey?.(key);
    this.failures.push(file ? { id, reason, file } : { id, reason });
    if (this.dryRun) this.plan.push({ action: 'fail', resource: 'item', sourceId: id, label: reason });
    this.progress.step({ key, action: 'fail', ok: false, id, error: reason });
  }

  note(message: string): void {
    this.progress.note(message);
  }

  /** A resource left as it is on purpose: in the summary (KEPT on a terminal, `kept` in JSON). */
  keep(entry: Kept): void {
    this.kept.push(entry);
  }

  /**
   * Runs the work and ends the run: the summary on success or partial failure; on Ctrl-C the
   * journal is left resumable; any other error fails the run (after what it did is journaled).
   */
  async execute(work: () => Promise<Record<string, unknown> | void>): Promise<Output> {
    let extra: Record<string, unknown> | void;
    try {
      extra = await work();
    } catch (err) {
      if (this.ctx.signal.aborted) this.interrupted();
      else this.abandon();
      throw err;
    }
    return this.finish(extra ?? {});
  }

  /** The run stopped on an error that is not one item's (a missing content type, a service down). */
  private abandon(): void {
    this.progress.stop(this.summary());
    if (!this.journal) return;
    this.journal.finish('failed', this.countsWithFailures());
    this.lock?.release();
    if (this.journal.steps().length) this.ctx.io.err(`Run ${this.journal.id} stopped; what it did is journaled (cms undo ${this.journal.id}, or fix the cause and cms ${this.command} --resume ${this.journal.id})\n`);
  }

  /** Ctrl-C: the journal says where the run stopped and how to go on. */
  interrupted(): void {
    this.progress.stop(this.summary());
    if (!this.journal) return;
    this.journal.finish('interrupted', this.countsWithFailures());
    this.lock?.release();
    this.ctx.io.err(`Run ${this.journal.id} was interrupted; continue it with: cms ${this.command} --resume ${this.journal.id}\n`);
  }

  /** Ends the run: the journal's status and counts, the summary to print, exit 3 on failures. */
  finish(extra: Record<string, unknown> = {}): Output {
    const summary = { ...this.summary(), ...extra };
    this.progress.stop(summary);
    const succeeded = Object.values(this.counts).some((n) => n > 0);
    this.journal?.finish(this.failures.length ? (succeeded ? 'partial' : 'failed') : 'completed', this.countsWithFailures());
    this.lock?.release();
    const out = this.output(summary);
    if (!this.failures.length) return out;
    reportToGitHub(
      this.ctx.io,
      this.ctx.env,
      `cms ${this.command}: ${this.failures.length} failed`,
      this.failures.map((f) => ({ file: f.file, title: `cms ${this.command} failed`, message: `${f.id}: ${f.reason}` })),
    );
    return failing(out, new PartialFailure(`${this.failures.length} item${this.failures.length === 1 ? '' : 's'} failed`, this.failures));
  }

  /** Whether the summary carries the counts by resource and action (`schema create`); off when the caller counts itself. */
  countsInSummary = true;

  summary(): Record<string, unknown> {
    const { created = 0, updated = 0, unchanged = 0, ...others } = this.counts;
    const summary: Record<string, unknown> = { runId: this.id, created, updated, unchanged, failed: this.failures.length, ...(this.countsInSummary ? others : {}), failures: this.failures };
    if (this.kept.length) summary.kept = this.kept;
    if (this.dryRun) Object.assign(summary, { dryRun: true, plan: this.plan });
    summary.seconds = Math.round((Date.now() - this.started) / 100) / 10;
    return summary;
  }

  private countsWithFailures(): Record<string, number> {
    return { ...this.counts, failed: this.failures.length };
  }

  private count(step: Omit<StepEntry, 't' | 'at'>): void {
    let name = step.resource === 'item' ? ITEM_COUNTS[step.action] : step.action === 'unchanged' || step.action === 'skip' ? undefined : `${step.resource} ${step.action}`;
    if (!name) return;
    // What a move did to its sources is counted apart from what it did to the copies.
    if (step.side === 'source') name = `source${name[0]!.toUpperCase()}${name.slice(1)}`;
    this.counts[name] = (this.counts[name] ?? 0) + 1;
  }

  private output(summary: Record<string, unknown>): Output {
    if ((this.ctx.globals.output !== 'table' && this.ctx.globals.output !== 'wide') || this.ctx.globals.query) return item(summary);
    if (!this.ctx.io.isTTY) {
      for (const f of this.failures) this.ctx.io.err(`failed: ${f.id}: ${f.reason}\n`);
      for (const k of this.kept) this.ctx.io.err(`kept: ${k.resource} ${k.id}: ${k.reason}\n`);
      return text(pipedSummary(summary, this.plan));
    }
    return text(renderSummary(this.command, summary, this.plan, this.failures, this.journal?.meta.status));
  }
}

const SUMMARY_SKIP = new Set(['runId', 'failures', 'plan', 'dryRun', 'seconds', 'kept']);

/** A resource a run left as it was on purpose, and why. */
export interface Kept {
  resource: string;
  id: string;
  label: string;
  reason: string;
}

/** The summary as people read it: the plan (dry run), the counts, then each failure with its reason. */
function renderSummary(command: string, summary: Record<string, unknown>, plan: PlanRow[], failures: Failure[], status?: string): string {
  const lines: string[] = [];
  if (summary.dryRun) {
    lines.push(`Dry run of cms ${command}: nothing was changed.`, '');
    // TARGET (what an update overwrites, by name) only when some row has one.
    const targets = plan.some((p) => p.targetLabel !== undefined);
    const head = ['ACTION', 'RESOURCE', 'SOURCE', 'LABEL', ...(targets ? ['TARGET'] : []), 'REPOSITORY', 'FOLDER'];
    const rows = plan.map((p) => [p.action, p.resource, p.sourceId ?? '', p.label ?? '', ...(targets ? [p.targetLabel === undefined ? '' : `${p.targetLabel} (${p.targetId})`] : []), p.repository ?? '', p.folder ?? '']);
    for (const line of table(head, rows)) lines.push(line);
    lines.push('');
  } else {
    lines.push(`Run ${summary.runId} (cms ${command}): ${status ?? 'completed'} in ${summary.seconds} s`);
  }
  const counts = Object.entries(summary).filter(([k, v]) => !SUMMARY_SKIP.has(k) && typeof v === 'number');
  lines.push(...table([summary.dryRun ? 'WOULD' : 'RESULT', 'COUNT'], counts.map(([k, v]) => [k, String(v)])));
  const kept = (summary.kept ?? []) as Kept[];
  if (kept.length) {
    lines.push('');
    for (const line of table(['KEPT', 'RESOURCE', 'ID', 'WHY'], kept.map((k) => [k.label, k.resource, k.id, k.reason]))) lines.push(line);
  }
  if (failures.length) {
    lines.push('');
    for (const line of table(['FAILED', 'REASON'], failures.map((f) => [f.id, f.reason]))) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Piped: rows without headers, like every piped table. A dry run's plan (action, resource, source,
 * label, repository, folder), else the counts (name, count); each failure goes to stderr.
 */
function pipedSummary(summary: Record<string, unknown>, plan: PlanRow[]): string {
  // The last two columns name what an update would overwrite (a mapping may choose another item than the source's), empty otherwise.
  if (summary.dryRun) return tsv(plan.map((p) => [p.action, p.resource, p.sourceId, p.label, p.repository, p.folder, p.targetLabel === undefined ? '' : p.targetId, p.targetLabel]));
  return tsv(Object.entries(summary).filter(([k, v]) => !SUMMARY_SKIP.has(k) && typeof v === 'number'));
}

/** Plan and failure tables, a row per item: never spread into arguments (see WorkQueue.push). */
function table(head: string[], rows: string[][]): string[] {
  return alignedLines([head, ...rows], 60);
}
