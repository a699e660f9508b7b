import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { authorizeAs, checkVersion } from '../items/index.js';
import { changeStatus, copyItem, setWorkflow, updateItem } from '../items/index.js';
import { publishItem } from '../publishing/index.js';
import type { BulkJobType } from './store.js';
import { items, type ContentItem } from '../items/index.js';
import { repositories, type Repository } from '../repositories/index.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

// What each job type does to one entry of its selection: the single-item operation, with that
// operation's permissions, applied as the job's creator. An action throws the operation's error
// (the entry then fails alone) or returns what it made, which the entry's result shows.

type Made = Record<string, unknown>;
type Action<I> = (ctx: RequestContext, hubId: string, input: I) => Made;

const assignUsers: Action<Input<typeof bodies.assignUsers>> = (ctx, hubId, input) => {
  const item = loadItemAs(ctx, 'items.update', hubId, input.contentItemId);
  return versionOf(updateItem(ctx, item, { version: input.version ?? item.version, assignees: input.assignees }, 'ASSIGN'));
};

/** Like a single copy: read rights on the source, create rights on the destination. */
const copyItems: Action<Input<typeof bodies.copyItems>> = (ctx, hubId, input) => {
  const source = loadItemAs(ctx, 'items.get', hubId, input.contentItemId);
  const repo = loadRepositoryAs(ctx, 'items.create', hubId, input.contentRepositoryId);
  const copy = copyItem(ctx, repo, source, { version: input.version, label: input.label, name: input.name, folderId: input.folderId });
  return { newContentItemId: copy.id };
};

/** Publishes the item as it is now; the version names what the client expects to publish. */
const publish: Action<Input<typeof bodies.publish>> = (ctx, hubId, input) => {
  const item = loadItemAs(ctx, 'publishing.publishItem', hubId, input.contentItemId);
  checkVersion(item, input.version);
  return { publishingJobId: publishItem(ctx, item).id };
};

const unarchive: Action<Input<typeof bodies.unarchive>> = (ctx, hubId, input) => {
  const item = loadItemAs(ctx, 'items.unarchive', hubId, input.contentItemId);
  return versionOf(changeStatus(ctx, item, 'ACTIVE', input.version));
};

/** Without a version the entry applies to the current one. */
const updateWorkflow: Action<Input<typeof bodies.updateWorkflow> & Input<typeof bodies.workflow>> = (ctx, hubId, input) => {
  const item = loadItemAs(ctx, 'items.setWorkflow', hubId, input.contentItemId);
  return versionOf(setWorkflow(ctx, item, { version: input.version ?? item.version, state: input.workflow.state }));
};

export const BULK_ACTIONS: Record<BulkJobType, Action<any>> = {
  ASSIGN_USERS: assignUsers,
  COPY_ITEMS: copyItems,
  PUBLISH: publish,
  UNARCHIVE: unarchive,
  UPDATE_WORKFLOW: updateWorkflow,
};

const versionOf = (item: ContentItem): Made => ({ version: item.version });

/** An item of the job's hub, with the permissions of operation `op` (404 when missing or elsewhere, 403 when not allowed). */
function loadItemAs(ctx: RequestContext, op: string, hubId: string, id: string): ContentItem {
  const item = items(ctx.db).get(id);
  if (!item || item.hubId !== hubId) throw notFound('ContentItem', id);
  authorizeAs(ctx, op, { hubId, repoId: item.contentRepositoryId }, 'ContentItem', id);
  return item;
}

function loadRepositoryAs(ctx: RequestContext, op: string, hubId: string, id: string): Repository {
  const repo = repositories(ctx.db).get(id);
  if (!repo || repo.hubId !== hubId) throw notFound('ContentRepository', id);
  authorizeAs(ctx, op, { hubId, repoId: repo.id }, 'ContentRepository', id);
  return repo;
}
