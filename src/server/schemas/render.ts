import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import type { ContentTypeSchema } from './store.js';

/** A schema; an archived one offers unarchive and no update or archive. */
export function renderSchema(ctx: RequestContext, schema: ContentTypeSchema) {
  const base = ctx.href(`/content-type-schemas/${schema.id}`);
  const { links, add } = linkSet(ctx, { hubId: schema.hubId }, { self: link(base), 'content-type-schema': link(base) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${schema.hubId}`)));
  add('schemas.history', 'history', templated(`${base}/history{?page,size,sort}`));
  add('schemas.getVersion', 'getByVersion', templated(`${base}/{version}`));
  if (schema.status === 'ACTIVE') {
    add('schemas.update', 'update', link(base));
    add('schemas.archive', 'archive', link(`${base}/archive`));
  } else add('schemas.unarchive', 'unarchive', link(`${base}/unarchive`));
  return { ...fields(schema), _links: links };
}

/** One recorded version: read-only, linked to the schema it belongs to. */
export function renderSchemaVersion(ctx: RequestContext, schema: ContentTypeSchema) {
  const base = ctx.href(`/content-type-schemas/${schema.id}`);
  const { links, add } = linkSet(ctx, { hubId: schema.hubId }, { self: link(`${base}/${schema.version}`), 'content-type-schema': link(base) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${schema.hubId}`)));
  return { ...fields(schema), _links: links };
}

function fields(schema: ContentTypeSchema) {
  const { hubId: _hub, ...rest } = schema;
  return rest;
}
