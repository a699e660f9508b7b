import { readFileSync } from 'node:fs';
import type { ServedInfo } from './_serve.js';

/** The detached sandbox a pid file names, if that process is still alive (a stale file counts as none). */
export function readPidFile(file: string): ServedInfo | null {
  let info: ServedInfo;
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as ServedInfo;
  } catch {
    return null;
  }
  if (!Number.isInteger(info?.pid) || info.pid <= 0 || typeof info.url !== 'string') return null;
  try {
    process.kill(info.pid, 0);
    return info;
  } catch (err) {
    // EPERM: alive, another user's. Only ESRCH says it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? info : null;
  }
}
