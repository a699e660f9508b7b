// Functional permissions (CONTENT:FUNCTIONAL:<AREA>:<ACTION>) and ACL permissions per resource.

export const FN = (area: string, action: string) => `CONTENT:FUNCTIONAL:${area}:${action}`;

/** Every functional permission the sandbox knows; the admin client holds them all. */
export const FUNCTIONAL_PERMISSIONS = [
  ...['CREATE', 'EDIT', 'DELETE', 'MANAGE_ACCESS'].map((a) => FN('HUB', a)),
  ...['CREATE', 'READ', 'EDIT'].map((a) => FN('CONTENT_TYPE', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE', 'MANAGE_ACCESS'].map((a) => FN('REPOSITORY', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE', 'PUBLISH'].map((a) => FN('CONTENT_ITEM', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => FN('EVENT', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE', 'SCHEDULE'].map((a) => FN('EDITION', a)),
  ...['CREATE', 'READ'].map((a) => FN('SNAPSHOT', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => FN('WEBHOOK', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => FN('EXTENSION', a)),
  ...['CREATE', 'READ', 'EDIT'].map((a) => FN('WORKFLOW_STATE', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => FN('SEARCH_INDEX', a)),
  ...['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => FN('INTEGRATION', a)),
  FN('ADMIN', 'MANAGE_ACCESS'),
] as const;

export type AclResourceType = 'hubs' | 'content-repositories';

/** ACL permissions that can exist on each resource type. */
export const ACL_PERMISSIONS: Record<AclResourceType, readonly string[]> = {
  hubs: ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_REPOSITORY', 'MANAGE_ACCESS'],
  'content-repositories': ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_CONTENT', 'EDIT_CONTENT', 'DELETE_CONTENT', 'MANAGE_ACCESS'],
};

/** What `share` may grant (the description's additionalPermissions). */
export const SHAREABLE = ['READ', 'EDIT', 'DELETE', 'SHARE'] as const;

/** A route's ACL requirement: `Hub:READ`, `ContentRepository:EDIT_CONTENT`, ... */
export type AclRequirement = `Hub:${string}` | `ContentRepository:${string}`;
