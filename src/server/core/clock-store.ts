import type { Db } from './db.js';
import { readState, writeState } from './state.js';
import { REAL_TIME, clockNow, type Clock, type ClockState } from './clock.js';

/**
 * The sandbox clock as stored in the data directory. `refresh()` re-reads it (once per request
 * and per scheduler pass), so `cms sandbox clock advance` moves the clock of a running server too.
 */
export class SandboxClock implements Clock {
  private state: ClockState = REAL_TIME;

  constructor(private readonly db: Db) {
    this.refresh();
  }

  refresh(): void {
    this.state = readState<ClockState>(this.db, 'clock') ?? REAL_TIME;
  }

  now(): number {
    return clockNow(this.state);
  }

  get current(): ClockState {
    return this.state;
  }

  save(state: ClockState): void {
    writeState(this.db, 'clock', state);
    this.state = state;
  }
}
