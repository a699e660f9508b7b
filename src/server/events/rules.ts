import { conflict, validationFailed, type ErrorDetail } from '../core/errors.js';
import type { CmsEvent } from './store.js';

// Rules the event and edition handlers share.

export function refuseArchived(event: CmsEvent): void {
  if (event.status === 'ARCHIVED') {
    throw conflict(`Event ${event.id} is archived and can no longer change`, { code: 'EVENT_ARCHIVED', entity: 'Event', property: 'status', invalidValue: event.status });
  }
}

/** The fields a partial body gave (undefined means "not sent"). */
export function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

interface Window {
  start: string;
  end: string;
}

/**
 * Start must come before end, and a window placed in another (an edition in its event) must lie
 * within it. Each problem names the property to fix: the one the request changed.
 */
export function checkWindow(entity: string, window: Window, changed: Partial<Window>, within?: Window): void {
  const problems: ErrorDetail[] = [];
  if (window.start >= window.end) {
    const property = changed.end !== undefined || changed.start === undefined ? 'end' : 'start';
    const message = property === 'end' ? `end: must be after start (${window.start})` : `start: must be before end (${window.end})`;
    problems.push({ entity, property, invalidValue: window[property], message });
  }
  if (within && window.start < within.start) {
    problems.push({ entity, property: 'start', invalidValue: window.start, message: `start: must not be before the event starts (${within.start})` });
  }
  if (within && window.end > within.end) {
    problems.push({ entity, property: 'end', invalidValue: window.end, message: `end: must not be after the event ends (${within.end})` });
  }
  if (problems.length) throw validationFailed(problems);
}
