import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { MigrationHost } from './load.js';
import { readRecord } from './record.js';

// `cms migration status`: the hub's record of applied migrations, and given files, each file's
// standing against it (matched by the name the migration declares, else its file name).

export interface StatusRow {
  name: string;
  status: 'applied' | 'changed' | 'partial' | 'undone' | 'not applied';
  appliedAt?: string;
  runId?: string;
  hash?: string;
  file?: string;
}

export async function migrationStatus(ctx: Context, files: string[], hub?: string): Promise<StatusRow[]> {
  const client = await ctx.client();
  const hubId = await ctx.hubId(hub, client);
  const { applied, dropped } = await readRecord(client, hubId);
  if (dropped) ctx.io.note(`The record dropped its ${dropped} oldest entr${dropped === 1 ? 'y' : 'ies'} (it holds about 500).`);
  if (!files.length) return applied.map((a) => ({ name: a.name, status: a.status === 'partial' || a.status === 'undone' ? a.status : 'applied', appliedAt: a.appliedAt, runId: a.runId, hash: a.hash }));
  const rows: StatusRow[] = [];
  for (const file of files) {
    const path = resolve(file);
    let hash: string;
    try {
      hash = createHash('sha256').update(readFileSync(path)).digest('hex');
    } catch {
      throw new UsageError(`Migration ${file} cannot be read`);
    }
    // The name a migration declares is known only by loading it; most use their file name.
    let name = basename(path);
    if (!applied.some((a) => a.name === name)) {
      const host = await MigrationHost.load(path, { timeoutMs: 1000, getItem: async () => undefined });
      name = host.file.name;
      await host.close();
    }
    const a = applied.find((x) => x.name === name);
    rows.push(a ? { name, status: a.status === 'undone' ? 'undone' : a.hash !== hash ? 'changed' : a.status === 'partial' ? 'partial' : 'applied', appliedAt: a.appliedAt, runId: a.runId, hash: a.hash, file } : { name, status: 'not applied', hash, file });
  }
  return rows;
}
