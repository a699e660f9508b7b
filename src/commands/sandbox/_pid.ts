import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { ServedInfo } from './_serve.js';

// Process identity: a pid names a process only while it lives. A detached sandbox that died
// without removing sandbox.pid (kill -9, the OOM killer, a reboot) leaves a pid the system may
// give to any other process, so a pid alone proves nothing: `stop` would signal a stranger and
// `serve --detach` refuse to start. The pid file records when its process started (on Linux, field
// 22 of /proc/<pid>/stat: clock ticks after boot, unique to the process for the life of the
// system), and only a process that started then is taken for the sandbox. Where there is no /proc,
// the sandbox at the file's URL must name the pid in its status (GET /__sandbox/status `pid`).

/** When the process started, where the system says (Linux: /proc); undefined elsewhere or when it is gone. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) may hold spaces and parentheses: count from the last ')'. Field 3 is first.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** What a pid file holds: the served JSON, and when its process started. */
export interface PidRecord {
  info: ServedInfo;
  start?: string;
}

/** The served JSON with the pid and its start, written whole (temporary file and rename): readers never see half of it. */
export function writePidFile(file: string, info: ServedInfo): void {
  const start = processStart(info.pid);
  try {
    writeFileSync(`${file}.tmp`, `${JSON.stringify({ ...info, ...(start ? { processStart: start } : {}) })}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch (err) {
    // A half-written temporary (a full disk) is not left behind; a directory in the way stays.
    try {
      rmSync(`${file}.tmp`, { force: true });
    } catch {
      /* not ours to remove */
    }
    throw err;
  }
}

/**
 * A small note of the data directory (sandbox.pid, serve.json) as text; null when it is missing,
 * not a regular file (a FIFO or /dev/zero in its place would never end) or over 64 KB.
 */
export function readNote(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > 65_536) return null;
    const buf = Buffer.alloc(st.size);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, st.size, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The record of a pid file as written (whether its process lives or not); null when there is none or it is not one. */
function readRecord(file: string): PidRecord | null {
  let data: ServedInfo & { processStart?: unknown };
  try {
    data = JSON.parse(readNote(file) ?? '');
  } catch {
    return null;
  }
  if (!Number.isInteger(data?.pid) || data.pid <= 0 || typeof data.url !== 'string') return null;
  const { processStart: start, ...info } = data;
  return { info, start: typeof start === 'string' ? start : undefined };
}

/** The pid a pid file names (the process may be gone, or another): for a detaching parent that knows its child's pid. */
export function pidFileNames(file: string): ServedInfo | null {
  return readRecord(file)?.info ?? null;
}

/**
 * The detached sandbox a pid file names, when its process is proven to be that sandbox; a stale
 * file (its process gone, or its pid now another process's) counts as none.
 */
export async function readPidFile(file: string): Promise<ServedInfo | null> {
  return (await findDetached(file))?.info ?? null;
}

/** As readPidFile, with the start the file recorded (to tell the process from a successor while it stops). */
export async function findDetached(file: string): Promise<PidRecord | null> {
  const record = readRecord(file);
  if (!record || !isRunning(record.info.pid)) return null;
  const same = isSameProcess(record.info.pid, record.start);
  if (same !== undefined) return same ? record : null;
  return (await statusNames(record.info.url, record.info.pid)) ? record : null;
}

/**
 * Whether the pid is still the process that started at `start`: true or false where the system
 * says when processes start (Linux), undefined where it does not, or when the file recorded no start.
 */
export function isSameProcess(pid: number, start: string | undefined): boolean | undefined {
  if (!isRunning(pid)) return false;
  const now = processStart(pid);
  if (now === undefined || start === undefined) return undefined;
  return now === start;
}

/** Whether the sandbox answering at the URL says it is served by this pid (2 s at most). */
async function statusNames(url: string, pid: number): Promise<boolean> {
  if (!/^http:\/\/[^/?#@]+$/.test(url)) return false;
  try {
    const res = await fetch(`${url}/__sandbox/status`, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
    if (!res.ok) return false;
    const text = await res.text();
    return text.length < 65_536 && (JSON.parse(text) as { pid?: unknown })?.pid === pid;
  } catch {
    return false;
  }
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
