import { created, ok, type RequestContext } from '../context.js';
import { newUuid } from '../ids.js';
import { loadItem, loadRepository } from '../load.js';
import { saveItem, type ContentItem } from '../store/items.js';
import { renderItem } from '../resources/item.js';
import { assignedType, checkBody, checkFolder, checkLocale } from '../item-rules.js';
import type { Input } from '../validate.js';
import type * as bodies from '../schemas/items.js';

export function create(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const input = ctx.validate<Input<typeof bodies.create>>('items.create', ctx.json());
  const type = assignedType(ctx, repo, input.body._meta.schema);
  checkBody(ctx, type, input.body);
  checkLocale(repo, input.locale);
  checkFolder(ctx, repo, input.folderId);
  const id = newUuid();
  const stamp = ctx.createdStamp();
  const item: ContentItem = {
    id,
    hubId: repo.hubId,
    contentRepositoryId: repo.id,
    folderId: input.folderId ?? null,
    body: input.body,
    version: 1,
    label: input.label,
    status: 'ACTIVE',
    locale: input.locale ?? null,
    assignees: input.assignees ?? [],
    ...(input.assignees?.length ? { assignedDate: stamp.createdDate } : {}),
    deliveryKey: null,
    deliveryId: id,
    publishingStatus: 'NONE',
    validationState: 'VALID',
    ...stamp,
  };
  saveItem(ctx.db, item, 'CREATE', true);
  return created(renderItem(ctx, item), ctx.href(`/content-items/${id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderItem(ctx, loadItem(ctx)));
}
