import type { Context } from './context.js';
import type { OptionSpec } from './define.js';
import { WaitTimeout } from '../core/errors.js';
import { sleep } from '../core/retry.js';
import { canonicalJson } from '../ops/files/content-files.js';
import { item, list, type Column, type Output } from '../output/result.js';

// Watch mode (`-w`, like `kubectl get -w`): the resource is printed, then printed again each
// time it changes; a list prints its new and changed rows (without the header again). It ends
// on Ctrl-C (exit 130), when the resource reaches a final state (exit 0), or at --timeout
// (exit 8 when a final state was awaited, 0 for a list). Every poll is one bounded read.

export const watchOptions: OptionSpec[] = [
  { flags: '-w, --watch', description: 'keep watching: print again on each change (Ctrl-C ends it)' },
  { flags: '--interval <duration>', description: 'with --watch: time between reads', duration: true, default: '2s' },
  { flags: '--timeout <duration>', description: 'with --watch: stop after this long', duration: true, default: '30m' },
];

export interface WatchFlags {
  watch?: boolean;
  interval: number;
  timeout: number;
}

/** The smallest pause between reads, whatever --interval says: a watch must not hammer the service. */
const MIN_INTERVAL_MS = 100;

/** Watches one resource until `final` says it is done (or the timeout, or Ctrl-C). */
export async function watchItem<T>(ctx: Context, flags: WatchFlags, what: string, read: () => Promise<T>, columns: Column[] | undefined, final: (value: T) => boolean): Promise<void> {
  let last = '';
  await poll(
    ctx,
    flags,
    async () => {
      const value = await read();
      const seen = canonicalJson(value);
      if (seen !== last) await print(ctx, item(value, columns), last === '');
      last = seen;
      return final(value);
    },
    () => {
      throw new WaitTimeout(`${what} did not reach a final state before --timeout`);
    },
  );
}

/** Watches a list: all rows first, then each new or changed row (by id) as it appears. */
export async function watchList(ctx: Context, flags: WatchFlags, read: () => AsyncIterable<unknown> | Iterable<unknown>, columns: Column[], limit: number | undefined): Promise<void> {
  const seen = new Map<string, string>();
  let first = true;
  await poll(
    ctx,
    flags,
    async () => {
      const changed: unknown[] = [];
      let n = 0;
      for await (const row of read()) {
        if (limit !== undefined && n++ >= limit) break;
        const json = canonicalJson(row);
        const key = String((row as { id?: unknown })?.id ?? json);
        if (seen.get(key) !== json) changed.push(row);
        seen.delete(key);
        seen.set(key, json);
      }
      // Remember a bounded number of rows: the least recently seen are forgotten first.
      const cap = Math.max(1000, (limit ?? 0) * 2);
      for (const k of seen.keys()) {
        if (seen.size <= cap) break;
        seen.delete(k);
      }
      if (first || changed.length) await print(ctx, list(changed, columns), first);
      first = false;
      return false;
    },
    () => {},
  );
}

async function poll(ctx: Context, flags: WatchFlags, step: () => Promise<boolean>, timedOut: () => void): Promise<void> {
  const deadline = Date.now() + flags.timeout;
  for (;;) {
    if (await step()) return;
    if (Date.now() >= deadline) return timedOut();
    await sleep(Math.max(MIN_INTERVAL_MS, Math.min(flags.interval, deadline - Date.now())), ctx.signal);
  }
}

/** Prints as the command's output would print; after the first time, tables without their header. */
async function print(ctx: Context, out: Output, first: boolean): Promise<void> {
  const { render } = await import('../output/render.js');
  const opts = ctx.renderOptions;
  await render(out, first ? opts : { ...opts, headers: false }, ctx.io);
}
