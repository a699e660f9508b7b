import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A bulk run keeps a little of every item (ids, links, its journal's steps): about 25 MB live at
// 100,000 items. By default V8 lets the heap grow to several times what is live before it
// collects, and the promoted garbage of the pages and bodies that stream through made a
// 100,000-item import peak at 570 MB and an export at 240 MB. --optimize-for-size makes it
// collect sooner: about half the peak, for more CPU in the collector (export +20% time, import
// +9%: bench/bulk.mjs). So only runs large enough for memory to matter pay it; shorter runs,
// other commands and `cms sandbox serve` keep V8's default. V8 reads this flag as it goes, so it
// can be set once the process runs.

/** From this many items a run favours a small heap over speed. */
export const LARGE_RUN = 20_000;

let set = false;

/** A run about to handle `items` items: from LARGE_RUN on, V8 favours a small heap for the rest of the process. */
export function sizeHeapFor(items: number): void {
  if (set || items < LARGE_RUN) return;
  set = true;
  setFlagsFromString('--optimize-for-size');
  // One full collection now, before the run: the heap is then mostly what loading the CLI left
  // (compiled code, parsed JSON), and V8 sets the heap's next limit from what survives a full
  // collection. Without it the limit stays where startup put it, and the run's garbage filled the
  // heap to it before the first full collection (a 100,000-item import: about 70 MB more at its
  // peak). A context made after --expose-gc is set has gc().
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
  gc?.();
}
