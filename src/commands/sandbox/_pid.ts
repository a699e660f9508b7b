import { readFileSync } from 'node:fs';
import type { ServedInfo } from './_serve.js';

/** The detached sandbox a pid file names, if that process is still running (a stale file counts as none). */
export function readPidFile(file: string): ServedInfo | null {
  let info: ServedInfo;
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as ServedInfo;
  } catch {
    return null;
  }
  if (!Number.isInteger(info?.pid) || info.pid <= 0 || typeof info.url !== 'string') return null;
  return isRunning(info.pid) ? info : null;
}

/**
 * Whether the process runs: signal 0 reaches it (EPERM: another user's, running), and on Linux it
 * is no zombie (a detached sandbox outlives the cms that started it, and in a container without
 * an init nothing may reap it).
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}
