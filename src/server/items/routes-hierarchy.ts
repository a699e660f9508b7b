import { ok, type Reply, type RequestContext } from '../core/context.js';
import { link } from '../core/hal.js';
import { loadItem } from './load.js';
import { hasHierarchyChildren, hierarchyChildren, items, type ContentItem } from './store.js';

// Hierarchies as the management SDK reads them (dc-management-sdk-js 3.3.0,
// `dc.hierarchies.children.get(id)` and `.parents.get(id)`): GET /hierarchy-node/{id}/children
// answers the node and its direct children, /parents the node and its ancestors from the root
// down. A node is an item whose body says `_meta.hierarchy: {root, parentId}`; children are the
// ACTIVE items of its hub naming it as parent (indexed, migration 0013-hierarchies). Bounded:
// at most MAX_CHILDREN children, at most MAX_DEPTH ancestors, each once (data may hold a cycle).

const MAX_CHILDREN = 1000;
const MAX_DEPTH = 100;

/** The node fields of the SDK's HierarchyNodeModel, in the hosted service's order, with its links. */
function node(ctx: RequestContext, item: ContentItem): Record<string, unknown> {
  const h = item.hierarchy;
  const base = ctx.href(`/hierarchy-node/${item.id}`);
  const links: Record<string, unknown> = { 'content-item': link(ctx.href(`/content-items/${item.id}`)) };
  if (item.status === 'ACTIVE' && ctx.can('items.archive', { hubId: item.hubId, repoId: item.contentRepositoryId })) links.archive = link(ctx.href(`/content-items/${item.id}/archive`));
  links['get-hierarchy-parents'] = link(`${base}/parents`);
  links['get-hierarchy-children'] = link(`${base}/children`);
  return {
    id: item.id,
    contentTypeUri: item.body._meta.schema,
    label: item.label,
    publishingStatus: item.publishingStatus,
    root: h?.root ?? false,
    ...(h?.parentId ? { parentId: h.parentId } : {}),
    hasChildren: hasHierarchyChildren(ctx.db, item.hubId, item.id),
    repositoryId: item.contentRepositoryId,
    _links: links,
  };
}

/** The answer: the node itself, its list under `name`, and its own links. */
function answer(ctx: RequestContext, item: ContentItem, name: 'children' | 'parents', list: ContentItem[]): Reply {
  const { _links: _own, ...fields } = node(ctx, item);
  return ok({
    ...fields,
    [name]: list.map((i) => node(ctx, i)),
    _links: { self: link(ctx.href(`/hierarchy-node/${item.id}/${name}`)), 'content-item': link(ctx.href(`/content-items/${item.id}`)) },
  });
}

/** GET /hierarchy-node/{id}/children: the direct children, in creation order. */
export function children(ctx: RequestContext): Reply {
  const item = loadItem(ctx);
  const list = hierarchyChildren(ctx.db, item.hubId, item.id, MAX_CHILDREN);
  return answer(ctx, item, 'children', list);
}

/** GET /hierarchy-node/{id}/parents: the ancestors, the root first; the walk stops at a missing parent or one seen before. */
export function parents(ctx: RequestContext): Reply {
  const item = loadItem(ctx);
  const seen = new Set([item.id]);
  const up: ContentItem[] = [];
  let parentId = item.hierarchy?.parentId;
  while (parentId && !seen.has(parentId) && up.length < MAX_DEPTH) {
    const parent = items(ctx.db).get(parentId);
    if (!parent || parent.hubId !== item.hubId) break;
    seen.add(parentId);
    up.push(parent);
    parentId = parent.hierarchy?.parentId;
  }
  return answer(ctx, item, 'parents', up.reverse());
}
