import type { RequestContext } from '../core/context.js';
import { badRequest, conflict } from '../core/errors.js';
import {
  assignedType,
  checkActive,
  checkBody,
  checkDeliveryKey,
  checkFolder,
  checkLocale,
  checkVersion,
  requestedDeliveryKey,
  withDeliveryKey,
} from './rules.js';
import { itemVersion, newItem, saveItem, saveVersion, type ContentItem, type ItemAction } from './store.js';
import { repositories, type Repository } from '../repositories/index.js';
import { workflowStates } from '../workflow-states/index.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

// Item operations shared by the single-item routes and bulk jobs. Each takes an item the caller
// has already loaded and been authorized for, applies every rule of the operation and saves the
// result; nothing changes when a rule fails.

/** The fields an update may change: a single PATCH, a bulk update entry or a bulk assignment. */
export type UpdateInput = Pick<Input<typeof bodies.update>, 'version' | 'body' | 'label' | 'folderId' | 'assignees'> & Partial<Pick<Input<typeof bodies.update>, 'locale' | 'deliveryKey'>>;

/**
 * Updates an item from its current version only; every update makes a new version. Only
 * fields that change are checked, since clients send whole fetched items back.
 */
export function updateItem(ctx: RequestContext, item: ContentItem, input: UpdateInput, action: ItemAction = 'UPDATE'): ContentItem {
  checkActive(item);
  checkVersion(item, input.version);
  const repo = repositories(ctx.db).get(item.contentRepositoryId)!;
  const changes: Partial<ContentItem> = {};
  if (input.body) {
    checkBody(ctx, repo, assignedType(ctx, repo, input.body._meta.schema), input.body);
    changes.body = input.body;
  }
  if (input.label !== undefined) changes.label = input.label;
  if (input.folderId !== undefined && input.folderId !== item.folderId) {
    checkFolder(ctx, repo, input.folderId);
    changes.folderId = input.folderId;
  }
  if (input.locale !== undefined && input.locale !== item.locale) {
    checkLocale(repo, input.locale);
    changes.locale = input.locale;
  }
  if (input.assignees) Object.assign(changes, assignment(ctx, item, input.assignees));
  const key = requestedDeliveryKey(item.deliveryKey, input.body, input.deliveryKey);
  if (key !== null && key !== item.deliveryKey) checkDeliveryKey(ctx.db, item.hubId, item.id, key, input.body?._meta.deliveryKey === key ? 'body._meta.deliveryKey' : 'deliveryKey');
  const next = withDeliveryKey({ ...item, ...changes }, key);
  return saveVersion(ctx.db, item, next, ctx.modifiedStamp(), action);
}

/** Assignees, with the date they were last assigned when the list changes to someone. */
function assignment(ctx: RequestContext, item: ContentItem, assignees: string[]): Partial<ContentItem> {
  const same = assignees.length === item.assignees.length && assignees.every((a, i) => a === item.assignees[i]);
  return same || !assignees.length ? { assignees } : { assignees, assignedDate: ctx.nowIso() };
}

export type CopyInput = Pick<Input<typeof bodies.copy>, 'label' | 'version'> & Partial<Pick<Input<typeof bodies.copy>, 'body' | 'name' | 'folderId' | 'locale'>>;

/**
 * Copies a version of an item (a number or 'latest') into a repository. The copy never carries
 * the delivery key, and keeps the source's locale when the destination accepts it.
 */
export function copyItem(ctx: RequestContext, repo: Repository, source: ContentItem, input: CopyInput): ContentItem {
  const from = input.version === 'latest' ? source : itemVersion(ctx.db, source.id, input.version);
  if (!from) throw badRequest(`Content item ${source.id} has no version ${input.version}`, { code: 'VERSION_NOT_FOUND', entity: 'ContentItem', property: 'version', invalidValue: input.version });
  const base = input.body ?? from.body;
  const body = input.name === undefined ? base : { ...base, _meta: { ...base._meta, name: input.name } };
  checkBody(ctx, repo, assignedType(ctx, repo, body._meta.schema), body);
  const locale = input.locale !== undefined ? input.locale : from.locale && acceptsLocale(repo, from.locale) ? from.locale : null;
  checkLocale(repo, locale);
  checkFolder(ctx, repo, input.folderId);
  const item = newItem(repo, { body, label: input.label, folderId: input.folderId ?? null, locale, assignees: [] }, ctx.createdStamp());
  return saveItem(ctx.db, withDeliveryKey(item, null), 'COPY', true);
}

const acceptsLocale = (repo: Repository, locale: string) => !repo.itemLocales.length || repo.itemLocales.includes(locale);

/** Archives (to ARCHIVED) or unarchives (to ACTIVE) an item from its current version. */
export function changeStatus(ctx: RequestContext, item: ContentItem, to: ContentItem['status'], version: number): ContentItem {
  if (item.status === to) {
    throw conflict(`Content item ${item.id} is already ${to.toLowerCase()}`, { code: to === 'ARCHIVED' ? 'ITEM_ARCHIVED' : 'ITEM_NOT_ARCHIVED', entity: 'ContentItem', property: 'status', invalidValue: item.status });
  }
  checkVersion(item, version);
  return saveVersion(ctx.db, item, { status: to }, ctx.modifiedStamp(), to === 'ARCHIVED' ? 'ARCHIVE' : 'UNARCHIVE');
}

/** Assigns a workflow state of the item's hub; state null removes the workflow field altogether. */
export function setWorkflow(ctx: RequestContext, item: ContentItem, input: { version: number; state: string | null }): ContentItem {
  checkActive(item);
  checkVersion(item, input.version);
  if (input.state !== null && workflowStates(ctx.db).get(input.state)?.hubId !== item.hubId) {
    throw badRequest(`No workflow state ${input.state} in this hub`, { code: 'WORKFLOW_STATE_NOT_FOUND', entity: 'ContentItem', property: 'state', invalidValue: input.state });
  }
  const { workflow: _old, ...rest } = item;
  const next: ContentItem = input.state === null ? rest : { ...rest, workflow: { state: input.state } };
  return saveVersion(ctx.db, rest, next, ctx.modifiedStamp(), 'WORKFLOW');
}
