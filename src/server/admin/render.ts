import type { RequestContext, Scope } from '../core/context.js';
import { link, linkSet, templated, type Links } from '../core/hal.js';
import type { AclResourceType } from '../core/auth/permissions.js';

/** A client holding ACL permissions on a hub or repository (its sid is the client id). */
export interface Member {
  sid: string;
  permissions: string[];
}

/** The resource whose access is administered, with the operations administration offers on it. */
export interface AccessTarget {
  type: AclResourceType;
  id: string;
  scope: Scope;
  ops: { members: string; member: string; revoke: string };
}

export const accessHref = (ctx: RequestContext, target: Pick<AccessTarget, 'type' | 'id'>) => ctx.href(`/admin/access/${target.type}/${target.id}`);

/** What administration can do on the resource: its members, one member, revoking permissions. */
export function accessLinks(ctx: RequestContext, target: AccessTarget): Links {
  const base = accessHref(ctx, target);
  const { links, add } = linkSet(ctx, target.scope, { self: link(base) });
  add(target.ops.members, 'members', templated(`${base}/members{?page,size,sort}`));
  add(target.ops.member, 'member', templated(`${base}/members{/sid}`));
  add(target.ops.revoke, 'revoke-permissions', templated(`${base}/members/{sid}/permissions{?permissions}`));
  return links;
}

export function renderMember(ctx: RequestContext, target: AccessTarget, member: Member) {
  const self = `${accessHref(ctx, target)}/members/${encodeURIComponent(member.sid)}`;
  const { links, add } = linkSet(ctx, target.scope, { self: link(self), member: link(self) });
  add(target.ops.revoke, 'revoke-permissions', templated(`${self}/permissions{?permissions}`));
  return { ...member, _links: links };
}
