import type { Edition, PublishingStatus } from '../editions/index.js';

// The description's ranking rule (Events 5), shared by the stand-in commerce platform and by
// virtual staging: a configuration is active from its start until its end (none: evergreen, it
// never expires); among active ones the later start ranks higher, and creation order is
// irrelevant. When the higher-ranked one expires, the next one wins again.

/** When content is on: end null means evergreen fallback content. */
export interface Window {
  id: string;
  start: string;
  end: string | null;
}

/** Editions whose content goes live at their start. */
export const WILL_PUBLISH: readonly PublishingStatus[] = ['SCHEDULED', 'PUBLISHING', 'PUBLISHED'];

/** An edition's window: it expires at its end only when its content expires with it (activeEndDate). */
export const editionWindow = (edition: Edition): Window => ({ id: edition.id, start: edition.start, end: edition.activeEndDate ? edition.end : null });

export const isActiveAt = (w: Window, atMs: number): boolean => Date.parse(w.start) <= atMs && (w.end === null || atMs < Date.parse(w.end));

const endOf = (w: Window): number => (w.end === null ? Infinity : Date.parse(w.end));

/**
 * Highest rank first: the later start. Equal starts (which scheduling warns about) fall back to
 * the one that lasts longer, then to the id, so the order never depends on creation.
 */
export function byRank(a: Window, b: Window): number {
  const start = Date.parse(b.start) - Date.parse(a.start);
  if (start !== 0) return start;
  if (endOf(a) !== endOf(b)) return endOf(b) > endOf(a) ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The windows active at `atMs`, the winner first. */
export function rankedActive<W extends Window>(windows: readonly W[], atMs: number): W[] {
  return windows.filter((w) => isActiveAt(w, atMs)).sort(byRank);
}
