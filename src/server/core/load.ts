import type { RequestContext } from './context.js';
import { notFound } from './errors.js';
import { hubs, type Hub } from '../hubs/store.js';
import { repositories, type Repository } from '../repositories/store.js';
import { schemas, type ContentTypeSchema } from '../schemas/store.js';
import { contentTypes, type ContentType } from '../content-types/store.js';
import { folders, type Folder } from '../folders/store.js';
import { items, type ContentItem } from '../items/store.js';
import { events, type CmsEvent } from '../events/store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadHub(ctx: RequestContext, id = ctx.params.hubId!): Hub {
  const hub = hubs(ctx.db).get(id);
  if (!hub) throw notFound('Hub', id);
  ctx.authorize({ hubId: hub.id }, 'Hub', id);
  return hub;
}

export function loadRepository(ctx: RequestContext, id = ctx.params.repoId!): Repository {
  const repo = repositories(ctx.db).get(id);
  if (!repo) throw notFound('ContentRepository', id);
  ctx.authorize({ hubId: repo.hubId, repoId: repo.id }, 'ContentRepository', id);
  return repo;
}

export function loadSchema(ctx: RequestContext, id = ctx.params.schemaId!): ContentTypeSchema {
  const schema = schemas(ctx.db).get(id);
  if (!schema) throw notFound('ContentTypeSchema', id);
  ctx.authorize({ hubId: schema.hubId }, 'ContentTypeSchema', id);
  return schema;
}

export function loadContentType(ctx: RequestContext, id = ctx.params.typeId!): ContentType {
  const type = contentTypes(ctx.db).get(id);
  if (!type) throw notFound('ContentType', id);
  ctx.authorize({ hubId: type.hubId }, 'ContentType', id);
  return type;
}

export function loadFolder(ctx: RequestContext, id = ctx.params.folderId!): Folder {
  const folder = folders(ctx.db).get(id);
  if (!folder) throw notFound('Folder', id);
  ctx.authorize({ hubId: folder.hubId, repoId: folder.repositoryId }, 'Folder', id);
  return folder;
}

export function loadItem(ctx: RequestContext, id = ctx.params.itemId!): ContentItem {
  const item = items(ctx.db).get(id);
  if (!item) throw notFound('ContentItem', id);
  ctx.authorize({ hubId: item.hubId, repoId: item.contentRepositoryId }, 'ContentItem', id);
  return item;
}

export function loadEvent(ctx: RequestContext, id = ctx.params.eventId!): CmsEvent {
  const event = events(ctx.db).get(id);
  if (!event) throw notFound('Event', id);
  ctx.authorize({ hubId: event.hubId }, 'Event', id);
  return event;
}
