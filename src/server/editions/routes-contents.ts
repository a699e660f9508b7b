import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { loadEdition, touchEdition } from './load.js';
import { checkEditable } from './rules.js';
import { contentEntries, requestedEntries } from './contents.js';
import { renderEditionContent } from './render-content.js';
import { editionContents, type Edition, type EditionContent } from './store.js';

const linkSchema = (ctx: RequestContext) => `${ctx.origin}/cms/schema/v1/core#/definitions/content-link`;

/** The stored contents a request names (none for `{}`), every snapshot checked against the hub. */
function requestedContents(ctx: RequestContext, edition: Edition): EditionContent['content']['body']['contents'] | null {
  const requested = requestedEntries(ctx.body());
  return requested && contentEntries(ctx.db, edition.hubId, requested, linkSchema(ctx));
}

/** POST …/contents: `{}` (filled later with PATCH), a snapshot, links to snapshots, or `{body: {contents}}`. */
export function create(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const contents = requestedContents(ctx, edition) ?? [];
  const stamp = ctx.createdStamp();
  const record: EditionContent = {
    id: newId(ctx.now()),
    hubId: edition.hubId,
    editionId: edition.id,
    content: { body: { contents } },
    createdBy: stamp.createdBy,
    createdDate: stamp.createdDate,
    lastModifiedDate: stamp.lastModifiedDate,
  };
  editionContents(ctx.db).insert(record);
  const updated = touchEdition(ctx, edition);
  return created(renderEditionContent(ctx, record, updated), ctx.href(`/editions/${edition.id}/contents/${record.id}`));
}

export function list(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  const req = pageRequest(ctx, ['createdDate'], [{ field: 'createdDate', dir: 'asc' }]);
  const page = editionContents(ctx.db).page({ where: 'edition_id = ?', params: [edition.id] }, req);
  return ok(pageOf(ctx, 'edition-content', page, req, (c) => renderEditionContent(ctx, c, edition)));
}

export function get(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  return ok(renderEditionContent(ctx, loadContent(ctx, edition), edition));
}

/** PATCH: the contents a body names replace the stored ones; a body naming none changes nothing. */
export function update(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const record = loadContent(ctx, edition);
  const contents = requestedContents(ctx, edition);
  if (!contents) return ok(renderEditionContent(ctx, record, edition), ctx.href(`/editions/${edition.id}/contents/${record.id}`));
  const saved = editionContents(ctx.db).update({ ...record, content: { body: { contents } }, lastModifiedDate: ctx.nowIso() });
  const updated = touchEdition(ctx, edition);
  return ok(renderEditionContent(ctx, saved, updated), ctx.href(`/editions/${edition.id}/contents/${record.id}`));
}

export function remove(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  editionContents(ctx.db).delete(loadContent(ctx, edition).id);
  touchEdition(ctx, edition);
  return noContent();
}

function loadContent(ctx: RequestContext, edition: Edition): EditionContent {
  const id = ctx.params.contentId!;
  const record = editionContents(ctx.db).get(id);
  if (!record || record.editionId !== edition.id) throw notFound('EditionContent', id);
  return record;
}
