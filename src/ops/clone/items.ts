import { ApiError, CliError } from '../../core/errors.js';
import type { FolderInfo, RepositoryInfo } from '../files/content-files.js';
import type { HubRepository, HubType } from '../content-model.js';
import { folderTree, hubRepositories } from '../export.js';
import { importItems, type ImportSource } from '../import.js';
import { NEW, isPlanned } from '../runs/reconcile.js';
import type { CloneContext } from './context.js';
import { ensureModule } from './modules.js';
import { spoolItems, subset } from './spool.js';

// Step `items`: every item of every repository, written by the item import engine (linked items
// first, links rewritten to target ids, delivery keys, locales, folders by path, archived items
// archived), then each item's workflow state. Delivery keys need the Content Delivery 2 module,
// enabled on the target when a source item has one.

export async function cloneItems(c: CloneContext): Promise<void> {
  const repos = [...(await hubRepositories(c.source.client, c.source.hubId)).values()];
  const folders = (await Promise.all(repos.map((r) => folderTree(c.source.client, r.id)))).flat();
  const spool = await spoolItems(c, repos, folders);
  try {
    if (spool.hasDeliveryKeys) await ensureModule(c, 'content-delivery-2');
    const { ready, planned } = await placeable(c, repos, folders, spool.source);
    await planOnly(c, spool.source, planned, repos, folders);
    const failed = ready.length ? await importReady(c, subset(spool.source, ready)) : new Set<string>();
    await cloneWorkflowStates(c, [...spool.workflow].filter(([id]) => !failed.has(id)), spool.source);
  } finally {
    spool.close();
  }
}

async function importReady(c: CloneContext, source: ImportSource): Promise<ReadonlySet<string>> {
  const result = await importItems(c.run, source, {
    client: c.target.client,
    hubId: c.target.hubId,
    keepDeliveryKeys: true,
    mapping: c.ids,
    concurrency: c.plan.concurrency,
    publish: false,
    io: c.io,
    signal: c.signal,
  });
  // A dry run's planned copies too: the events step rewrites slots to them.
  for (const [sourceId, targetId] of result.ids) c.ids.set('item', sourceId, targetId);
  return result.failed;
}

/**
 * Items whose target repository, folders and content types exist go to the import. A dry run
 * plans the rest itself: their containers are only planned, so each of them would be created.
 * Items of a repository without a target fail together, with one reason.
 */
async function placeable(c: CloneContext, repos: RepositoryInfo[], folders: FolderInfo[], source: ImportSource): Promise<{ ready: string[]; planned: string[] }> {
  const targets = await c.targetList<HubRepository>(`/hubs/${c.target.hubId}/content-repositories`, 'content-repositories');
  const types = new Set((await c.targetList<HubType>(`/hubs/${c.target.hubId}/content-types`, 'content-types')).map((t) => t.contentTypeUri));
  const ready: string[] = [];
  const planned: string[] = [];
  for (const repo of repos) {
    const inRepo = [...source.refs].filter(([, ref]) => ref.repoId === repo.id);
    if (!inRepo.length) continue;
    const target = c.ids.get('repository', repo.id) ?? targets.find((t) => t.name === repo.name)?.id;
    if (!target) {
      c.run.fail(`items:${repo.id}`, `repository ${repo.name}`, new CliError(`has no target repository: its ${inRepo.length} item(s) were not cloned (run the repositories step first)`));
      continue;
    }
    const containersPlanned = isPlanned(target) || folders.some((f) => f.repository === repo.id && isPlanned(c.ids.get('folder', f.id))) || inRepo.some(([, ref]) => !types.has(ref.schema));
    const into = c.dryRun && containersPlanned ? planned : ready;
    for (const [id] of inRepo) into.push(id);
  }
  return { ready, planned };
}

/** Dry run: items whose containers are only planned, each a create. */
async function planOnly(c: CloneContext, source: ImportSource, ids: string[], repos: RepositoryInfo[], folders: FolderInfo[]): Promise<void> {
  for (const id of ids) {
    const item = await source.load(id);
    const repository = repos.find((r) => r.id === item.contentRepositoryId)?.name;
    const folder = folders.find((f) => f.id === item.folderId)?.name ?? '';
    c.sync.record({ key: `item:${id}`, action: 'create', resource: 'item', sourceId: id, targetId: `${NEW}${id}`, label: item.label, place: { repository, folder } });
  }
}

/** Each item's workflow state, mapped to the target's copy of the same state. */
async function cloneWorkflowStates(c: CloneContext, states: [itemId: string, stateId: string][], source: ImportSource): Promise<void> {
  for (const [itemId, sourceState] of states) {
    const label = (await source.load(itemId)).label;
    const id = { key: `item-workflow:${itemId}`, resource: 'item-workflow', label };
    await c.sync.attempt(id, async () => {
      const targetId = c.ids.get('item', itemId);
      const state = c.ids.get('workflow-state', sourceState);
      if (!targetId || !state) throw new CliError(`${!targetId ? 'the item' : `its workflow state ${sourceState}`} has no copy in the target`);
      const current = isPlanned(targetId) ? undefined : await c.target.client.get<{ version: number; workflow?: { state?: string } }>(`/content-items/${targetId}`);
      const same = current?.workflow?.state === state;
      await c.sync.act({ ...id, action: same ? 'unchanged' : 'update', targetId, before: { state: current?.workflow?.state ?? null } }, async () => {
        if (!same) await setWorkflow(c, targetId, current!.version, state);
      });
    });
  }
}

async function setWorkflow(c: CloneContext, itemId: string, version: number, state: string): Promise<void> {
  try {
    await c.target.client.patch(`/content-items/${itemId}/workflow`, { version, state });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) throw new CliError(`the target item changed meanwhile (${err.message})`);
    throw err;
  }
}
