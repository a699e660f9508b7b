import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

/**
 * Makes a directory that holds secrets private before it is used: created 0700; when it exists
 * with a looser mode, tightened to 0700 with its files (and those one folder down) to 0600. A
 * private directory keeps its content private, so the common path costs one stat. A directory
 * owned by another user is refused: its owner could read or replace what we write (exit 2).
 */
export function ensurePrivateDir(dir: string, what: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: no POSIX modes to fix
  if (!tighten(dir, what, uid, 0o700)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isDirectory()) {
      tighten(path, what, uid, 0o700);
      for (const inner of readdirSync(path)) {
        const file = join(path, inner);
        if (lstatSync(file).isFile()) tighten(file, what, uid, 0o600);
      }
    } else if (st.isFile()) tighten(path, what, uid, 0o600);
  }
}

/** Whether the mode was looser than `mode` (and is not any more). */
function tighten(path: string, what: string, uid: number, mode: number): boolean {
  const st = statSync(path);
  if (st.uid !== uid) {
    throw new UsageError(`The ${what} ${path} belongs to another user (uid ${st.uid}); refusing to use it`, `Use a directory of your own (CMS_DATA_DIR, CMS_CONFIG_DIR), or change its owner.`);
  }
  if ((st.mode & 0o777 & ~mode) === 0) return false;
  chmodSync(path, st.mode & 0o777 & mode);
  return true;
}
