import type { RequestContext } from '../context.js';
import { badRequest } from '../errors.js';
import { stmt } from '../statements.js';
import type { Input } from '../validate.js';
import type * as schemas from './schemas.js';
import type { AclResourceType } from './permissions.js';
import { grantAcl } from './principal.js';

/** POST …/share: grants ACL permissions on a hub or repository to another client (user). */
export function shareResource(ctx: RequestContext, type: AclResourceType, id: string): void {
  const { user, additionalPermissions } = ctx.body<Input<typeof schemas.share>>();
  if (!stmt(ctx.db, 'SELECT 1 FROM clients WHERE id = ?').get(user)) {
    throw badRequest(`No client (user) '${user}' exists`, { entity: 'Share', property: 'user', invalidValue: user });
  }
  grantAcl(ctx.db, user, type, id, additionalPermissions);
}
