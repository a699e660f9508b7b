import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../src/server/core/route-table.js';
import { Api, createHub, createRepo, startServer, unique, type Reply, type TestServer } from '../helpers/server.js';
import { expectError, FN } from '../helpers/assert.js';
import { SCHEMA_HOST, assignType, createContentType, createItem, itemBody, schemaDocument } from '../helpers/content.js';

// The permission table of the description ("Authentication"), as a matrix. Each row is mapped
// to the routes of the route table that implement it; the routes' declared functional
// permissions and ACLs must be the row's. Then every mapped route is exercised over HTTP:
//   no token                                   401
//   every ACL, all but one functional perm.     403 naming it   (for each one the row needs)
//   every functional perm., all but one ACL     403 naming it   (for each one the row needs)
//   everything, on another hub's resource       404, shaped like a missing resource
//   exactly what the row needs                  success         (the 4xx above are not accidents)
// test/contract/permissions.test.ts already runs the hub and repository rows over HTTP; here
// their declarations are checked, and the other rows (content types, items, copy, administration)
// are exercised.

/** The table, as the description prints it (service-interface.md, "Authentication" 6). */
const TABLE = `
| Operation | Functional permission | ACLs |
|---|---|---|
| List hubs, localization settings | none | none |
| Create hub | CONTENT:FUNCTIONAL:HUB:CREATE | none |
| Get hub | none | Hub - READ |
| Update hub, update hub settings | CONTENT:FUNCTIONAL:HUB:EDIT | Hub - READ, Hub - EDIT |
| Share hub | none | Hub - READ, Hub - SHARE |
| Register content type | CONTENT:FUNCTIONAL:CONTENT_TYPE:CREATE | Hub - READ |
| Update content type, update schema | CONTENT:FUNCTIONAL:CONTENT_TYPE:EDIT | Hub - READ |
| Get content type schema | CONTENT:FUNCTIONAL:CONTENT_TYPE:READ | Hub - READ |
| Create repository | CONTENT:FUNCTIONAL:REPOSITORY:CREATE | Hub - READ, Hub - CREATE_REPOSITORY |
| List / get repository | CONTENT:FUNCTIONAL:REPOSITORY:READ | Hub - READ |
| Update repository, add / remove feature | CONTENT:FUNCTIONAL:REPOSITORY:EDIT | Hub - READ, ContentRepository - EDIT |
| Find repositories by feature | none | Hub - READ |
| Share repository | none | Hub - READ, ContentRepository - SHARE |
| Create content item | CONTENT:FUNCTIONAL:CONTENT_ITEM:CREATE | Hub - READ, ContentRepository - CREATE_CONTENT |
| Copy item: source | CONTENT:FUNCTIONAL:CONTENT_ITEM:READ | Hub - READ |
| Copy item: destination | CONTENT:FUNCTIONAL:CONTENT_ITEM:CREATE | Hub - READ, ContentRepository - CREATE_CONTENT |
| Archive item | CONTENT:FUNCTIONAL:CONTENT_ITEM:DELETE | Hub - READ, ContentRepository - DELETE_CONTENT |
| Unarchive item, update item(s) | CONTENT:FUNCTIONAL:CONTENT_ITEM:EDIT | Hub - READ, ContentRepository - EDIT_CONTENT |
| List items | CONTENT:FUNCTIONAL:CONTENT_ITEM:READ | Hub - READ |
| Administration on a hub | CONTENT:FUNCTIONAL:ADMIN:MANAGE_ACCESS and CONTENT:FUNCTIONAL:HUB:MANAGE_ACCESS | Hub - READ, Hub - MANAGE_ACCESS |
| Administration on a repository | CONTENT:FUNCTIONAL:ADMIN:MANAGE_ACCESS and CONTENT:FUNCTIONAL:REPOSITORY:MANAGE_ACCESS | Hub - READ, ContentRepository - MANAGE_ACCESS |
`;
const SPEC = '/work/shared/spec/service-interface.md';

type Kind = 'Hub' | 'ContentRepository';
interface Row {
  operation: string;
  fn: string[];
  acl: { kind: Kind; permission: string }[];
}

function parseTable(text: string): Row[] {
  const lines = text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Operation') && !l.startsWith('|---'));
  return lines.map((line) => {
    const [operation, fn, acl] = line.split('|').slice(1, 4).map((c) => c.trim()) as [string, string, string];
    return {
      operation,
      fn: fn === 'none' ? [] : fn.split(' and ').map((f) => f.trim()),
      acl: acl === 'none' ? [] : acl.split(',').map((a) => {
        const [kind, permission] = a.split(' - ').map((s) => s.trim()) as [Kind, string];
        return { kind, permission };
      }),
    };
  });
}

const rows = parseTable(TABLE);

const HUB_ACL = ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_REPOSITORY', 'MANAGE_ACCESS'];
const REPO_ACL = ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_CONTENT', 'EDIT_CONTENT', 'DELETE_CONTENT', 'MANAGE_ACCESS'];

/** The ids a call works on: one hub's resources (A, the one the client is given access to, or B, a hub it has no access to). */
interface Target {
  hubId: string;
  repoId: string;
  typeId: string;
  typeUri: string;
  /** A copy's source and the hub it lives in (its own hub, so a source check cannot be mistaken for a destination one). */
  sourceHubId: string;
  sourceItemId: string;
}

interface Request {
  method: string;
  path: string;
  body?: unknown;
}

/** How the row's ACLs and permissions apply to one route, and how to call it. */
interface Call {
  route: string;
  /** The entity a 404 names when the resource is in a hub the caller cannot see. */
  entity: string;
  /** Where the row's Hub and ContentRepository ACLs apply: the target's hub and repository, or the copy source's hub. */
  scope: 'target' | 'source';
  /** What the rest of the operation needs (a copy needs both rows' permissions). */
  alsoFn?: string[];
  alsoAcl?: (t: Target) => AclGrant[];
  /** Builds the request, making what it works on (as the admin) when it needs a fresh state. */
  prepare(t: Target): Promise<Request>;
  ok: number;
  /** The bulk update answers 207 and reports each entry's status: read that one. */
  statusOf?: (res: Reply) => number;
  errorOf?: (res: Reply) => { message: string; entity?: string };
}

type AclGrant = { resource: 'hubs' | 'content-repositories'; id: string; permissions: string[] };

const route = (key: string): RouteDef => {
  const [method, path] = key.split(' ') as [string, string];
  const found = routes.find((r) => r.method === method && r.path === `/v2/content${path}`.replace(/\/$/, ''));
  if (!found) throw new Error(`the route table has no ${key}`);
  return found;
};

let srv: TestServer;
let admin: Api;
let A: Target;
let B: Target;
/** A client every administration call can look at, revoke and have re-granted. */
let member: string;
let cases = 0;

async function makeTarget(sourceHubId?: string): Promise<Target> {
  const hubId = (await createHub(admin)).id;
  const type = await createContentType(admin, hubId);
  const repo = await createRepo(admin, hubId);
  await assignType(admin, repo.id, type.id);
  // The copy source: an item of a repository in another hub, with the same content type URI.
  const srcHub = sourceHubId ?? (await createHub(admin)).id;
  const srcType = await createContentType(admin, srcHub, type.uri);
  const srcRepo = await createRepo(admin, srcHub);
  await assignType(admin, srcRepo.id, srcType.id);
  const source = await createItem(admin, srcRepo.id, type.uri);
  return { hubId, repoId: repo.id, typeId: type.id, typeUri: type.uri, sourceHubId: srcHub, sourceItemId: source.id };
}

async function ensureOk(res: Reply, what: string, status: number[] = [200, 201, 204]) {
  if (!status.includes(res.status)) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
}

/** A fresh item of the target's repository, in the state a call needs. */
async function freshItem(t: Target, archived = false): Promise<any> {
  const item = await createItem(admin, t.repoId, t.typeUri);
  if (!archived) return item;
  return (await ensureOk(await admin.post(`/content-items/${item.id}/archive`, { version: item.version }), 'archive')).body;
}

const bulkStatus = (res: Reply) => (res.status === 207 ? res.body.results[0].status : res.status);
const bulkError = (res: Reply) => (res.status === 207 ? { message: res.body.results[0].message, entity: /ContentItem/.test(res.body.results[0].message) ? 'ContentItem' : undefined } : res.body.errors[0]);

const adminOnHub = (path: string, method = 'GET', ok = 200): Call => ({
  route: `${method} /admin${path}`,
  entity: 'Hub',
  scope: 'target',
  ok,
  prepare: async (t) => {
    await ensureOk(await admin.post(`/hubs/${t.hubId}/share`, { user: member, additionalPermissions: ['READ'] }), 're-grant');
    return { method, path: `/admin${path.replace(':hubId', t.hubId).replace(':sid', member)}${method === 'DELETE' ? '?permissions=READ' : ''}` };
  },
});

const adminOnRepository = (path: string, method = 'GET', ok = 200): Call => ({
  route: `${method} /admin${path}`,
  entity: 'ContentRepository',
  scope: 'target',
  ok,
  prepare: async (t) => {
    await ensureOk(await admin.post(`/content-repositories/${t.repoId}/share`, { user: member, additionalPermissions: ['READ'] }), 're-grant');
    return { method, path: `/admin${path.replace(':repoId', t.repoId).replace(':sid', member)}${method === 'DELETE' ? '?permissions=READ' : ''}` };
  },
});

/** Each row of the table: the routes that implement it, and (for rows not run by permissions.test.ts) how to call them. */
const MAPPING: Record<string, { routes: string[]; calls?: Call[] }> = {
  'List hubs, localization settings': {
    routes: ['GET /hubs', 'GET /localization'],
    calls: [{ route: 'GET /localization', entity: '', scope: 'target', ok: 200, prepare: async () => ({ method: 'GET', path: '/localization' }) }],
  },
  'Create hub': { routes: ['POST /hubs'] },
  'Get hub': { routes: ['GET /hubs/:hubId'] },
  'Update hub, update hub settings': { routes: ['PATCH /hubs/:hubId', 'PATCH /hubs/:hubId/settings'] },
  'Share hub': { routes: ['POST /hubs/:hubId/share'] },
  'Register content type': {
    routes: ['POST /hubs/:hubId/content-types'],
    calls: [
      {
        route: 'POST /hubs/:hubId/content-types',
        entity: 'Hub',
        scope: 'target',
        ok: 201,
        prepare: async (t) => {
          const uri = `${SCHEMA_HOST}/${unique('matrix')}.json`;
          await ensureOk(await admin.post(`/hubs/${t.hubId}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(schemaDocument(uri)), validationLevel: 'CONTENT_TYPE' }), 'schema');
          return { method: 'POST', path: `/hubs/${t.hubId}/content-types`, body: { contentTypeUri: uri, settings: { label: 'Matrix' } } };
        },
      },
    ],
  },
  'Update content type, update schema': {
    routes: ['PATCH /content-types/:typeId', 'PATCH /content-types/:typeId/schema', 'PATCH /content-type-schemas/:schemaId'],
    calls: [
      { route: 'PATCH /content-types/:typeId', entity: 'ContentType', scope: 'target', ok: 200, prepare: async (t) => ({ method: 'PATCH', path: `/content-types/${t.typeId}`, body: { settings: { label: unique('label') } } }) },
      { route: 'PATCH /content-types/:typeId/schema', entity: 'ContentType', scope: 'target', ok: 200, prepare: async (t) => ({ method: 'PATCH', path: `/content-types/${t.typeId}/schema`, body: {} }) },
      {
        route: 'PATCH /content-type-schemas/:schemaId',
        entity: 'ContentTypeSchema',
        scope: 'target',
        ok: 200,
        prepare: async (t) => {
          const uri = `${SCHEMA_HOST}/${unique('matrix')}.json`;
          const schema = (await ensureOk(await admin.post(`/hubs/${t.hubId}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(schemaDocument(uri)), validationLevel: 'CONTENT_TYPE' }), 'schema')).body;
          return { method: 'PATCH', path: `/content-type-schemas/${schema.id}`, body: { body: JSON.stringify({ ...schemaDocument(uri), title: 'Changed' }), validationLevel: 'CONTENT_TYPE', version: schema.version } };
        },
      },
    ],
  },
  'Get content type schema': {
    routes: ['GET /content-types/:typeId/schema'],
    calls: [{ route: 'GET /content-types/:typeId/schema', entity: 'ContentType', scope: 'target', ok: 200, prepare: async (t) => ({ method: 'GET', path: `/content-types/${t.typeId}/schema` }) }],
  },
  'Create repository': { routes: ['POST /hubs/:hubId/content-repositories'] },
  'List / get repository': { routes: ['GET /hubs/:hubId/content-repositories', 'GET /content-repositories/:repoId'] },
  'Update repository, add / remove feature': { routes: ['PATCH /content-repositories/:repoId', 'POST /content-repositories/:repoId/features', 'DELETE /content-repositories/:repoId/features'] },
  'Find repositories by feature': { routes: ['GET /hubs/:hubId/content-repositories/search/findByFeaturesContaining'] },
  'Share repository': { routes: ['POST /content-repositories/:repoId/share'] },
  'Create content item': {
    routes: ['POST /content-repositories/:repoId/content-items'],
    calls: [
      {
        route: 'POST /content-repositories/:repoId/content-items',
        entity: 'ContentRepository',
        scope: 'target',
        ok: 201,
        prepare: async (t) => ({ method: 'POST', path: `/content-repositories/${t.repoId}/content-items`, body: { label: unique('matrix'), body: itemBody(t.typeUri) } }),
      },
    ],
  },
  // The handler checks a copy's source against the requirements of reading an item (items.get).
  'Copy item: source': {
    routes: ['GET /content-items/:itemId'],
    calls: [
      {
        route: 'POST /content-repositories/:repoId/content-items',
        entity: 'ContentItem',
        scope: 'source',
        alsoFn: [FN('CONTENT_ITEM', 'CREATE')],
        alsoAcl: (t) => [
          { resource: 'hubs', id: t.hubId, permissions: ['READ'] },
          { resource: 'content-repositories', id: t.repoId, permissions: ['CREATE_CONTENT'] },
        ],
        ok: 201,
        prepare: async (t) => ({ method: 'POST', path: `/content-repositories/${t.repoId}/content-items?sourceContentItemId=${t.sourceItemId}`, body: { label: unique('copy') } }),
      },
    ],
  },
  'Copy item: destination': {
    routes: ['POST /content-repositories/:repoId/content-items'],
    calls: [
      {
        route: 'POST /content-repositories/:repoId/content-items',
        entity: 'ContentRepository',
        scope: 'target',
        alsoFn: [FN('CONTENT_ITEM', 'READ')],
        alsoAcl: (t) => [{ resource: 'hubs', id: t.sourceHubId, permissions: ['READ'] }],
        ok: 201,
        prepare: async (t) => ({ method: 'POST', path: `/content-repositories/${t.repoId}/content-items?sourceContentItemId=${t.sourceItemId}`, body: { label: unique('copy') } }),
      },
    ],
  },
  'Archive item': {
    routes: ['POST /content-items/:itemId/archive'],
    calls: [
      {
        route: 'POST /content-items/:itemId/archive',
        entity: 'ContentItem',
        scope: 'target',
        ok: 200,
        prepare: async (t) => {
          const item = await freshItem(t);
          return { method: 'POST', path: `/content-items/${item.id}/archive`, body: { version: item.version } };
        },
      },
    ],
  },
  'Unarchive item, update item(s)': {
    routes: ['POST /content-items/:itemId/unarchive', 'PATCH /content-items/:itemId', 'PATCH /content-items'],
    calls: [
      {
        route: 'POST /content-items/:itemId/unarchive',
        entity: 'ContentItem',
        scope: 'target',
        ok: 200,
        prepare: async (t) => {
          const item = await freshItem(t, true);
          return { method: 'POST', path: `/content-items/${item.id}/unarchive`, body: { version: item.version } };
        },
      },
      {
        route: 'PATCH /content-items/:itemId',
        entity: 'ContentItem',
        scope: 'target',
        ok: 200,
        prepare: async (t) => {
          const item = await freshItem(t);
          return { method: 'PATCH', path: `/content-items/${item.id}`, body: { label: unique('updated'), body: item.body, version: item.version } };
        },
      },
      {
        route: 'PATCH /content-items',
        entity: 'ContentItem',
        scope: 'target',
        ok: 200,
        statusOf: bulkStatus,
        errorOf: bulkError,
        prepare: async (t) => {
          const item = await freshItem(t);
          return { method: 'PATCH', path: '/content-items', body: [{ id: item.id, version: item.version, label: unique('bulk') }] };
        },
      },
    ],
  },
  'List items': {
    routes: ['GET /content-repositories/:repoId/content-items'],
    calls: [{ route: 'GET /content-repositories/:repoId/content-items', entity: 'ContentRepository', scope: 'target', ok: 200, prepare: async (t) => ({ method: 'GET', path: `/content-repositories/${t.repoId}/content-items` }) }],
  },
  'Administration on a hub': {
    routes: [
      'GET /admin/access/hubs/:hubId',
      'GET /admin/access/hubs/:hubId/members',
      'GET /admin/access/hubs/:hubId/members/:sid',
      'DELETE /admin/access/hubs/:hubId/members/:sid/permissions',
      'GET /admin/hubs/:hubId/modules',
      'POST /admin/hubs/:hubId/modules/search-index',
      'POST /admin/hubs/:hubId/modules/content-delivery-2',
    ],
    calls: [
      adminOnHub('/access/hubs/:hubId'),
      adminOnHub('/access/hubs/:hubId/members'),
      adminOnHub('/access/hubs/:hubId/members/:sid'),
      adminOnHub('/access/hubs/:hubId/members/:sid/permissions', 'DELETE', 204),
      adminOnHub('/hubs/:hubId/modules'),
      adminOnHub('/hubs/:hubId/modules/search-index', 'POST', 204),
      adminOnHub('/hubs/:hubId/modules/content-delivery-2', 'POST', 204),
    ],
  },
  'Administration on a repository': {
    routes: [
      'GET /admin/access/content-repositories/:repoId',
      'GET /admin/access/content-repositories/:repoId/members',
      'GET /admin/access/content-repositories/:repoId/members/:sid',
      'DELETE /admin/access/content-repositories/:repoId/members/:sid/permissions',
    ],
    calls: [
      adminOnRepository('/access/content-repositories/:repoId'),
      adminOnRepository('/access/content-repositories/:repoId/members'),
      adminOnRepository('/access/content-repositories/:repoId/members/:sid'),
      adminOnRepository('/access/content-repositories/:repoId/members/:sid/permissions', 'DELETE', 204),
    ],
  },
};

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  A = await makeTarget();
  B = await makeTarget();
  member = unique('matrix-member');
  await admin.client(member, [], [
    { resource: 'hubs', id: A.hubId, permissions: ['READ'] },
    { resource: 'hubs', id: B.hubId, permissions: ['READ'] },
  ]);
}, 120_000);

afterAll(async () => {
  await srv?.stop();
  console.log(`[reliability] permission matrix: ${rows.length} rows of the description's table mapped to ${new Set(Object.values(MAPPING).flatMap((m) => m.routes)).size} routes; ${cases} HTTP cases checked`);
});

describe("the description's permission table", () => {
  it('is the one the description prints, and every row is mapped to routes', () => {
    if (existsSync(SPEC)) {
      const spec = readFileSync(SPEC, 'utf8');
      const start = spec.indexOf('| Operation | Functional permission | ACLs |');
      const table = spec.slice(start, spec.indexOf('\n\n', start));
      expect(parseTable(table)).toEqual(rows);
    }
    expect(rows.map((r) => r.operation).sort()).toEqual(Object.keys(MAPPING).sort());
  });

  describe.each(rows)('$operation', (row) => {
    const mapping = MAPPING[row.operation]!;

    it.each(mapping.routes)('%s declares exactly the functional permissions and ACLs of the row', (key) => {
      const r = route(key);
      expect([...(r.fn ?? [])].sort()).toEqual([...row.fn].sort());
      expect([...(r.acl ?? [])].sort()).toEqual(row.acl.map((a) => `${a.kind}:${a.permission}`).sort());
    });

    for (const call of mapping.calls ?? []) {
      const scopeOf = (t: Target) => (call.scope === 'source' ? { hub: t.sourceHubId, repo: undefined } : { hub: t.hubId, repo: t.repoId });
      /** A client with these functional permissions and these ACLs on the row's scope (plus what the rest of the operation needs). */
      const clientWith = (fn: string[], hubAcl: string[], repoAcl: string[], t: Target = A) => {
        const { hub, repo } = scopeOf(t);
        const acl: AclGrant[] = [...(call.alsoAcl?.(A) ?? [])];
        if (hubAcl.length) acl.push({ resource: 'hubs', id: hub, permissions: hubAcl });
        if (repoAcl.length && repo) acl.push({ resource: 'content-repositories', id: repo, permissions: repoAcl });
        return admin.client(unique('matrix'), [...new Set([...fn, ...(call.alsoFn ?? [])])], acl);
      };
      const send = async (api: Api | null, t: Target) => {
        const req = await call.prepare(t);
        cases++;
        return (api ?? admin).req(req.method, req.path, req.body, api ? {} : { token: null });
      };
      const statusOf = call.statusOf ?? ((res: Reply) => res.status);
      const errorOf = call.errorOf ?? ((res: Reply) => expectError(res, res.status));
      const hubAcl = row.acl.filter((a) => a.kind === 'Hub').map((a) => a.permission);
      const repoAcl = row.acl.filter((a) => a.kind === 'ContentRepository').map((a) => a.permission);

      describe(`${call.route}${call.scope === 'source' ? ' (copy source)' : ''}`, () => {
        it('without a token: 401', async () => {
          expectError(await send(null, A), 401);
        });

        it('with exactly the permissions of the row: success', async () => {
          const res = await send(await clientWith(row.fn, hubAcl, repoAcl), A);
          expect(statusOf(res), res.text).toBe(call.ok);
        });

        it.each(row.fn)('with every ACL, without %s: 403', async (missing) => {
          const res = await send(await clientWith(row.fn.filter((f) => f !== missing), HUB_ACL, REPO_ACL), A);
          expect(statusOf(res), res.text).toBe(403);
          expect(errorOf(res).message).toContain(missing);
        });

        if (row.acl.length) {
          it.each(row.acl.map((a) => [a.kind, a.permission] as const))('with every functional permission, without %s - %s: 403', async (kind, permission) => {
            const res = await send(
              await clientWith(
                row.fn,
                HUB_ACL.filter((p) => kind !== 'Hub' || p !== permission),
                REPO_ACL.filter((p) => kind !== 'ContentRepository' || p !== permission),
              ),
              A,
            );
            expect(statusOf(res), res.text).toBe(403);
            expect(errorOf(res).message).toContain(`${kind} - ${permission}`);
          });

          it("with everything, on another hub's resource: 404 like a missing one", async () => {
            // Only the part the row is about lives in the other hub (a copy's source, or its destination).
            const elsewhere = call.scope === 'source' ? { ...A, sourceHubId: B.sourceHubId, sourceItemId: B.sourceItemId } : { ...B, sourceHubId: A.sourceHubId, sourceItemId: A.sourceItemId };
            const res = await send(await clientWith(row.fn, HUB_ACL, REPO_ACL), elsewhere);
            expect(statusOf(res), res.text).toBe(404);
            const err = errorOf(res);
            if (call.statusOf) expect(err.message).toContain(call.entity);
            else expect(err.entity).toBe(call.entity);
          });
        }
      });
    }
  });
});
