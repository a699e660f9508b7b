import type { RequestContext } from '../core/context.js';
import { link, linkSet } from '../core/hal.js';
import { isEditable } from './rules.js';
import type { Edition, EditionContent } from './store.js';

/** Edition content: `content` and `update` are PATCH targets (clients use both), offered while the edition can change. */
export function renderEditionContent(ctx: RequestContext, record: EditionContent, edition: Edition) {
  const editionHref = ctx.href(`/editions/${edition.id}`);
  const base = `${editionHref}/contents/${record.id}`;
  const { links, add } = linkSet(ctx, { hubId: edition.hubId }, { self: link(base), 'edition-content': link(base) });
  add('editions.get', 'edition', link(editionHref));
  if (isEditable(edition)) {
    add('editionContents.update', 'content', link(base));
    add('editionContents.update', 'update', link(base));
    add('editionContents.remove', 'delete', link(base));
  }
  const { hubId: _hub, ...fields } = record;
  return { ...fields, _links: links };
}
