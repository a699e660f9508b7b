import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainItem, type FolderInfo, type PlainItem, type RepositoryInfo } from '../files/content-files.js';
import { readSelection } from '../export.js';
import type { ImportSource, ItemRef } from '../import.js';
import { refReader } from '../sources.js';
import type { CloneContext } from './context.js';

// The source items of a clone, spooled to disk as they are read (one file per item, like an
// export) so only their references stay in memory, however large the hub: the import engine
// loads each item again when it writes it. What the clone needs besides the import (delivery
// keys, workflow states) is kept while reading.

export interface SpooledItems {
  source: ImportSource;
  /** Source item id -> its workflow state id. */
  workflow: Map<string, string>;
  hasDeliveryKeys: boolean;
  /** Removes the spool. */
  close(): void;
}

interface SourceItem extends PlainItem {
  workflow?: { state?: string | null };
}

export async function spoolItems(c: CloneContext, repositories: RepositoryInfo[], folders: FolderInfo[]): Promise<SpooledItems> {
  const dir = c.run.journal ? join(c.run.journal.dir, 'source-items') : mkdtempSync(join(tmpdir(), 'cms-clone-'));
  mkdirSync(dir, { recursive: true });
  const file = (id: string) => join(dir, `${id}.json`);
  const refs = new Map<string, ItemRef>();
  const { refOf, id } = refReader();
  const workflow = new Map<string, string>();
  let hasDeliveryKeys = false;
  const keep = (item: SourceItem) => {
    writeFileSync(file(item.id), JSON.stringify(plainItem(item)));
    refs.set(id(item.id), refOf(item));
    hasDeliveryKeys ||= Boolean(item.deliveryKey);
    if (item.workflow?.state) workflow.set(item.id, item.workflow.state);
  };
  const selection = { hubId: c.source.hubId, repoIds: repositories.map((r) => r.id), status: 'ACTIVE,ARCHIVED', facets: [] };
  await readSelection(c.source.client, selection, folders, { concurrency: c.plan.concurrency, pageSize: 100, signal: c.signal, onTotal: () => {}, onItem: keep });
  const source: ImportSource = {
    repositories,
    folders,
    refs,
    load: (id) => JSON.parse(readFileSync(file(id), 'utf8')) as PlainItem,
    typeHint: () => 'run the schemas and types steps of the clone first (cms hub clone --step schemas --step types)',
  };
  return { source, workflow, hasDeliveryKeys, close: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The same source, limited to some of its items. */
export function subset(source: ImportSource, ids: Iterable<string>): ImportSource {
  const refs = new Map<string, ItemRef>();
  for (const id of ids) refs.set(id, source.refs.get(id)!);
  return { ...source, refs };
}
