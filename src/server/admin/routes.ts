import { noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { link, pageOf, pageRequest, templated } from '../core/hal.js';
import { loadHub } from '../hubs/index.js';
import { loadRepository } from '../repositories/index.js';
import { ACL_PERMISSIONS } from '../core/auth/permissions.js';
import { revokeAcl } from '../core/auth/principal.js';
import { stmt } from '../core/statements.js';
import { HUB_MODULES as MODULES, hubs } from '../hubs/index.js';
import { accessHref, accessLinks, renderMember, type AccessTarget, type Member } from './render.js';

// Administration: the operations it offers, access to hubs and repositories (members and their
// ACL permissions), and hub modules (search index, Content Delivery 2).

/** GET /admin: every administrative operation, as links. */
export function operations(ctx: RequestContext) {
  const modules = ctx.href('/admin/hubs/{hubId}/modules');
  return ok({
    _links: {
      self: link(ctx.href('/admin')),
      access: link(ctx.href('/admin/access')),
      'hub-modules': templated(modules),
      'enable-search-index': templated(`${modules}/search-index`),
      'enable-content-delivery-2': templated(`${modules}/content-delivery-2`),
    },
  });
}

/** GET /admin/access: the resource types whose access can be managed. */
export function access(ctx: RequestContext) {
  return ok({
    _links: {
      self: link(ctx.href('/admin/access')),
      hubs: templated(ctx.href('/admin/access/hubs/{resourceId}')),
      'content-repositories': templated(ctx.href('/admin/access/content-repositories/{resourceId}')),
    },
  });
}

// Access to one resource. Each loader applies the route's ACLs (404 for a hub the caller cannot see).

function hubTarget(ctx: RequestContext): AccessTarget {
  const hub = loadHub(ctx);
  return { type: 'hubs', id: hub.id, scope: { hubId: hub.id }, ops: { members: 'admin.hubMembers', member: 'admin.hubMember', revoke: 'admin.revokeHubPermissions' } };
}

function repositoryTarget(ctx: RequestContext): AccessTarget {
  const repo = loadRepository(ctx);
  return {
    type: 'content-repositories',
    id: repo.id,
    scope: { hubId: repo.hubId, repoId: repo.id },
    ops: { members: 'admin.repositoryMembers', member: 'admin.repositoryMember', revoke: 'admin.revokeRepositoryPermissions' },
  };
}

/** The operations on one resource, plus a link to the resource itself (and its modules for a hub). */
function resourceOperations(ctx: RequestContext, target: AccessTarget) {
  const links = accessLinks(ctx, target);
  if (target.type === 'hubs') {
    links.hub = link(ctx.href(`/hubs/${target.id}`));
    links.modules = link(ctx.href(`/admin/hubs/${target.id}/modules`));
  } else links['content-repository'] = link(ctx.href(`/content-repositories/${target.id}`));
  return ok({ resource: target.type, resourceId: target.id, _links: links });
}

/** Members sorted by sid, paged (sort=sid,desc reverses). */
function listMembers(ctx: RequestContext, target: AccessTarget) {
  const req = pageRequest(ctx, ['sid'], [{ field: 'sid', dir: 'asc' }]);
  const all = membersOf(ctx, target);
  if (req.sort[0]?.dir === 'desc') all.reverse();
  const page = { items: all.slice(req.page * req.size, (req.page + 1) * req.size), total: all.length };
  return ok(pageOf(ctx, 'members', page, req, (m) => renderMember(ctx, target, m)));
}

function getMember(ctx: RequestContext, target: AccessTarget) {
  return ok(renderMember(ctx, target, memberOf(ctx, target, ctx.params.sid!)));
}

/** DELETE …/members/{sid}/permissions?permissions=READ,EDIT: 204; 404 when the member holds none of them. */
function revokePermissions(ctx: RequestContext, target: AccessTarget) {
  const sid = ctx.params.sid!;
  const permissions = requestedPermissions(ctx, target);
  if (revokeAcl(ctx.db, sid, target.type, target.id, permissions) === 0) {
    throw notFound('Member', `${sid} with ${permissions.join(', ')}`);
  }
  return noContent(`${accessHref(ctx, target)}/members/${encodeURIComponent(sid)}`);
}

/** ?permissions= (a comma list, or repeated): each one an ACL permission of the resource type. */
function requestedPermissions(ctx: RequestContext, target: AccessTarget): string[] {
  const given = ctx.query.getAll('permissions').flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  const allowed = ACL_PERMISSIONS[target.type];
  if (!given.length) {
    throw badRequest(`Query parameter 'permissions' is required: a comma list of ${allowed.join(', ')}`, { entity: 'Member', property: 'permissions', invalidValue: null });
  }
  const unknown = given.find((p) => !allowed.includes(p));
  if (unknown) throw badRequest(`'${unknown}' is not a permission of ${target.type}; use ${allowed.join(', ')}`, { entity: 'Member', property: 'permissions', invalidValue: unknown });
  return [...new Set(given)];
}

/** Every client holding ACL permissions on the resource, permissions in the canonical order. */
function membersOf(ctx: RequestContext, target: AccessTarget): Member[] {
  const rows = stmt(ctx.db, 'SELECT client_id, permission FROM acl WHERE resource_type = ? AND resource_id = ? ORDER BY client_id').all(target.type, target.id) as { client_id: string; permission: string }[];
  const order = ACL_PERMISSIONS[target.type];
  const bySid = new Map<string, string[]>();
  for (const r of rows) bySid.set(r.client_id, [...(bySid.get(r.client_id) ?? []), r.permission]);
  return [...bySid].map(([sid, permissions]) => ({ sid, permissions: permissions.sort((a, b) => order.indexOf(a) - order.indexOf(b)) }));
}

function memberOf(ctx: RequestContext, target: AccessTarget, sid: string): Member {
  const member = membersOf(ctx, target).find((m) => m.sid === sid);
  if (!member) throw notFound('Member', sid);
  return member;
}

export const hubOperations = (ctx: RequestContext) => resourceOperations(ctx, hubTarget(ctx));
export const hubMembers = (ctx: RequestContext) => listMembers(ctx, hubTarget(ctx));
export const hubMember = (ctx: RequestContext) => getMember(ctx, hubTarget(ctx));
export const revokeHubPermissions = (ctx: RequestContext) => revokePermissions(ctx, hubTarget(ctx));
export const repositoryOperations = (ctx: RequestContext) => resourceOperations(ctx, repositoryTarget(ctx));
export const repositoryMembers = (ctx: RequestContext) => listMembers(ctx, repositoryTarget(ctx));
export const repositoryMember = (ctx: RequestContext) => getMember(ctx, repositoryTarget(ctx));
export const revokeRepositoryPermissions = (ctx: RequestContext) => revokePermissions(ctx, repositoryTarget(ctx));

// Hub modules.

export function modules(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const base = ctx.href(`/admin/hubs/${hub.id}/modules`);
  return ok({
    hubId: hub.id,
    modules: Object.values(MODULES).map((name) => ({ name, enabled: hub.modules.includes(name) })),
    _links: {
      self: link(base),
      'enable-search-index': link(`${base}/search-index`),
      'enable-content-delivery-2': link(`${base}/content-delivery-2`),
    },
  });
}

function enable(ctx: RequestContext, name: string) {
  const hub = loadHub(ctx);
  if (!hub.modules.includes(name)) hubs(ctx.db).update({ ...hub, modules: [...hub.modules, name], ...ctx.modifiedStamp() });
  return noContent(ctx.href(`/admin/hubs/${hub.id}/modules`));
}

export const enableSearchIndex = (ctx: RequestContext) => enable(ctx, MODULES['search-index']);
export const enableContentDelivery2 = (ctx: RequestContext) => enable(ctx, MODULES['content-delivery-2']);
