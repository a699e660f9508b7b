import type { ApiClient } from '../../core/client.js';
import { ApiError, CliError } from '../../core/errors.js';

// The hub's record of applied migrations. It lives in the hub, so every machine (a laptop, a CI
// runner) sees the same record: in the settings of one extension named `cms-migrations`
// (category CONTENT_FIELD, never assigned to a schema, so no editor sees it). Extensions are a
// hub-level resource every hub has, with a free-form `settings` text (100,000 characters: about
// 500 records; the oldest are dropped past that, and `cms migration status` says so).
// Writes are read-modify-write under the run lock (one writing run per hub).

export const RECORD_EXTENSION = 'cms-migrations';
const MAX_SETTINGS = 100_000;

export interface AppliedMigration {
  name: string;
  /** SHA-256 of the file's text when it was applied. */
  hash: string;
  runId: string;
  appliedAt: string;
  /** undone: `cms undo` reverted its run; it may be applied again. */
  status: 'completed' | 'partial' | 'undone';
  counts: Record<string, number>;
}

interface Extension {
  id: string;
  name: string;
  settings?: string | null;
}

interface Stored {
  format: 'cms-migrations/1';
  applied: AppliedMigration[];
  dropped?: number;
}

export async function readRecord(client: ApiClient, hubId: string): Promise<{ applied: AppliedMigration[]; dropped: number }> {
  const ext = await find(client, hubId);
  const stored = parse(ext?.settings);
  return { applied: stored.applied, dropped: stored.dropped ?? 0 };
}

/** Adds (or replaces, for the same name) the record of one applied migration. */
export async function writeRecord(client: ApiClient, hubId: string, entry: AppliedMigration): Promise<void> {
  const ext = await find(client, hubId);
  const stored = parse(ext?.settings);
  stored.applied = [...stored.applied.filter((a) => a.name !== entry.name), entry];
  let text = JSON.stringify(stored);
  while (text.length > MAX_SETTINGS && stored.applied.length > 1) {
    stored.applied.shift();
    stored.dropped = (stored.dropped ?? 0) + 1;
    text = JSON.stringify(stored);
  }
  if (ext) await client.patch(`/extensions/${ext.id}`, { settings: text });
  else {
    await client.post(`/hubs/${hubId}/extensions`, {
      name: RECORD_EXTENSION,
      label: 'cms migrations (record of applied migrations)',
      description: 'Written by cms migration run --apply; read by cms migration status. Not an editor extension.',
      url: 'https://cms-cli.invalid/migrations',
      category: 'CONTENT_FIELD',
      settings: text,
    });
  }
}

/** `cms undo` of a migration run: its record says so, and the migration may be applied again. */
export async function markUndone(client: ApiClient, hubId: string, runId: string): Promise<void> {
  const ext = await find(client, hubId);
  const stored = parse(ext?.settings);
  const entry = stored.applied.find((a) => a.runId === runId);
  if (!ext || !entry) return;
  entry.status = 'undone';
  await client.patch(`/extensions/${ext.id}`, { settings: JSON.stringify(stored) });
}

async function find(client: ApiClient, hubId: string): Promise<Extension | undefined> {
  try {
    return await client.get<Extension>(`/hubs/${hubId}/extensions/${RECORD_EXTENSION}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

function parse(settings: string | null | undefined): Stored {
  if (!settings) return { format: 'cms-migrations/1', applied: [] };
  try {
    const value = JSON.parse(settings) as Stored;
    if (value?.format === 'cms-migrations/1' && Array.isArray(value.applied)) return value;
  } catch {
    /* below */
  }
  throw new CliError(`The hub's extension '${RECORD_EXTENSION}' does not hold a record of migrations: its settings were changed by hand`, 1, `Look at it with \`cms extension get ${RECORD_EXTENSION}\`; delete it to start a new record.`);
}
