import { dirname, isAbsolute, resolve } from 'node:path';
import type { Context } from '../../../cli/context.js';
import { UsageError } from '../../../core/errors.js';

// A snapshot argument is a name (kept in the sandbox's snapshots directory, over HTTP too) or a
// file (a path: it contains a slash). Files are written and read by this process, on the
// embedded sandbox's data directory: a served sandbox takes names only (routes-snapshots.ts).

export const isSnapshotFile = (target: string) => target.includes('/') || target.includes('\\') || isAbsolute(target);

/** Runs `use` on the embedded sandbox's service, with a snapshot file's problem as bad input (exit 2). */
export async function withEmbeddedService<T>(ctx: Context, file: string, use: (service: import('../../../server/service.js').Service, file: string) => T): Promise<T> {
  const conn = ctx.connection();
  if (!conn.embedded) {
    throw new UsageError(
      `A snapshot file needs the embedded sandbox; ${conn.apiUrl} is a served one, which keeps named snapshots`,
      'Give a name (cms sandbox snapshot save base), or start the served sandbox with --seed <file> / --export-on-exit <file>.',
    );
  }
  const [{ createSandbox }, { SnapshotError, NotASnapshotTarget }, { existsSync }] = await Promise.all([import('../../../server/app.js'), import('../../../server/core/snapshot-file.js'), import('node:fs')]);
  const path = resolve(file);
  if (!existsSync(dirname(path))) throw new UsageError(`No directory ${dirname(path)}`);
  const sandbox = createSandbox({ dataDir: conn.dataDir });
  try {
    return use(sandbox.service, path);
  } catch (err) {
    if (err instanceof NotASnapshotTarget) throw new UsageError(err.message, 'Give another file, or add --force to replace it.');
    if (err instanceof SnapshotError) throw new UsageError(err.message);
    throw err;
  } finally {
    sandbox.close();
  }
}
