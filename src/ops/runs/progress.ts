import type { IO } from '../../cli/io.js';
import { visible } from '../../output/visible.js';

/**
 * Progress of a bulk run, on stderr: a bar on a terminal (done/total, rate, ETA, failures),
 * one NDJSON event per step with --progress json (for CI logs), nothing otherwise.
 */
export type ProgressMode = 'auto' | 'bar' | 'json' | 'none';
export const PROGRESS_MODES: readonly ProgressMode[] = ['auto', 'bar', 'json', 'none'];

export interface StepEvent {
  key: string;
  action: string;
  ok: boolean;
  id?: string;
  error?: string;
}

export interface Progress {
  start(total: number | null, label: string): void;
  /** The total became known (or grew). */
  total(n: number): void;
  step(event: StepEvent): void;
  /** A note between steps (a phase change, a retry wait). */
  note(message: string): void;
  stop(summary: Record<string, unknown>): void;
}

export async function createProgress(mode: ProgressMode, io: IO): Promise<Progress> {
  const chosen = mode === 'auto' ? (io.isStderrTTY ? 'bar' : 'none') : mode;
  if (chosen === 'json') return jsonProgress(io);
  if (chosen === 'bar') return barProgress(io);
  return { start() {}, total() {}, step() {}, note() {}, stop() {} };
}

function jsonProgress(io: IO): Progress {
  const started = Date.now();
  let done = 0;
  let failed = 0;
  let total: number | null = null;
  const emit = (event: Record<string, unknown>) => io.errJson(`${JSON.stringify({ ...event, elapsedMs: Date.now() - started })}\n`);
  return {
    start(n, label) {
      total = n;
      emit({ event: 'start', label, total });
    },
    total(n) {
      total = n;
    },
    step(e) {
      done++;
      if (!e.ok) failed++;
      emit({ event: 'step', ...e, done, failed, total });
    },
    note(message) {
      emit({ event: 'note', message });
    },
    stop(summary) {
      emit({ event: 'end', done, failed, total, ...summary });
    },
  };
}

async function barProgress(io: IO): Promise<Progress> {
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: io.promptStream(),
      format: '{label} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted} | failed {failed}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 200,
      fps: 10,
      noTTYOutput: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  let failed = 0;
  let done = 0;
  const payload = () => ({ failed, rate: (done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(0) });
  return {
    start(total, label) {
      // The bar draws on the stream itself: what it shows of ours is escaped first.
      bar.start(total ?? 0, 0, { label: visible(label), ...payload() });
    },
    total(n) {
      bar.setTotal(n);
    },
    step(e) {
      done++;
      if (!e.ok) failed++;
      bar.increment(1, payload());
    },
    note(message) {
      bar.update(payload());
      io.err(`\n${message}\n`);
    },
    stop() {
      bar.update(payload());
      bar.stop();
    },
  };
}
