import type { RequestContext } from '../core/context.js';
import { link, linkSet } from '../core/hal.js';
import type { ContentType } from './store.js';

/** A content type; an archived one offers unarchive and no update or archive. */
export function renderContentType(ctx: RequestContext, type: ContentType) {
  const base = ctx.href(`/content-types/${type.id}`);
  const { links, add } = linkSet(ctx, { hubId: type.hubId }, { self: link(base), 'content-type': link(base) });
  add('contentTypes.effective', 'effective-content-type', link(`${base}/effective-content-type`));
  add('contentTypes.getSchema', 'content-type-schema', link(`${base}/schema`));
  if (type.status === 'ACTIVE') {
    add('contentTypes.update', 'update', link(base));
    add('contentTypes.archive', 'archive', link(`${base}/archive`));
  } else add('contentTypes.unarchive', 'unarchive', link(`${base}/unarchive`));
  const { hubId: _hub, cachedSchema: _cached, cachedSchemaVersion: _version, ...fields } = type;
  return { ...fields, _links: links };
}

/** The cached schema as the content-type-schema link answers it: {hubId, contentTypeUri, cachedSchema}. */
export function renderCachedSchema(ctx: RequestContext, type: ContentType) {
  const base = ctx.href(`/content-types/${type.id}/schema`);
  return {
    hubId: type.hubId,
    contentTypeUri: type.contentTypeUri,
    cachedSchema: type.cachedSchema,
    _links: { self: link(base), 'content-type': link(ctx.href(`/content-types/${type.id}`)) },
  };
}
