import { FN, type AclRequirement } from '../auth/permissions.js';

// Every endpoint of the sandbox in one list: method, path, the handler that serves it (loaded
// only when first hit) and the permissions of the description's table. Paths under /v2/content
// follow service-interface.md and wire-contract.md.

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteDef {
  /** `<family>.<handler>`: the module under routes/ and its exported handler. */
  op: string;
  method: Method;
  path: string;
  /** Functional permissions, all required (403 when one is missing). */
  fn?: string[];
  /** ACL requirements, applied by the handler through ctx.authorize once it knows the hub. */
  acl?: AclRequirement[];
  /** No token needed (token endpoint, schema documents, sandbox admin under /__sandbox). */
  public?: boolean;
  /** Handler is async and runs its own transactions; the body is passed through unparsed. */
  async?: boolean;
  /** Answers a non-JSON representation (HTML), so any Accept is fine. */
  html?: boolean;
  /** Only the sandbox admin client may call it (the /__sandbox admin prefix). */
  sandboxAdmin?: boolean;
  /**
   * `<family>.<schema>` in schemas/: the body is validated before the handler runs and handed
   * to it as ctx.input. Validation code (zod) loads only for requests that carry a body.
   */
  body?: string;
}

const V2 = '/v2/content';
type RouteOptions = Omit<RouteDef, 'op' | 'method' | 'path'>;
const route = (method: Method, path: string, op: string, opts: RouteOptions = {}): RouteDef => ({ method, path, op, ...opts });
const v2 = (method: Method, path: string, op: string, opts: RouteOptions = {}): RouteDef => route(method, V2 + path, op, opts);

const HUB_READ: AclRequirement[] = ['Hub:READ'];

export const routes: RouteDef[] = [
  // Token endpoint and the sandbox's own admin prefix
  route('POST', '/oauth/token', 'oauth.issueToken', { public: true }),
  route('GET', '/__sandbox/status', 'sandbox.status', { public: true }),
  route('POST', '/__sandbox/reset', 'sandbox.reset', { sandboxAdmin: true }),
  route('GET', '/__sandbox/clock', 'sandbox.getClock', { public: true }),
  route('POST', '/__sandbox/clock', 'sandbox.setClock', { sandboxAdmin: true, async: true, body: 'sandbox.clock' }),
  route('GET', '/__sandbox/clients', 'sandbox.listClients', { sandboxAdmin: true }),
  route('POST', '/__sandbox/clients', 'sandbox.createClient', { sandboxAdmin: true, body: 'sandbox.client' }),
  route('DELETE', '/__sandbox/clients/:clientId', 'sandbox.removeClient', { sandboxAdmin: true }),

  // Root and information
  v2('GET', '', 'root.getRoot'),
  v2('GET', '/localization', 'root.getLocalization'),

  // Hubs
  v2('GET', '/hubs', 'hubs.list'),
  v2('POST', '/hubs', 'hubs.create', { fn: [FN('HUB', 'CREATE')], body: 'hubs.create' }),
  v2('GET', '/hubs/:hubId', 'hubs.get', { acl: HUB_READ }),
  v2('PATCH', '/hubs/:hubId', 'hubs.update', { fn: [FN('HUB', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'hubs.update' }),
  v2('PATCH', '/hubs/:hubId/settings', 'hubs.updateSettings', { fn: [FN('HUB', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'hubs.settings' }),
  v2('PATCH', '/hubs/:hubId/plan', 'hubs.updatePlan', { fn: [FN('HUB', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'hubs.plan' }),
  v2('DELETE', '/hubs/:hubId', 'hubs.remove', { fn: [FN('HUB', 'DELETE')], acl: ['Hub:READ', 'Hub:DELETE'] }),
  v2('POST', '/hubs/:hubId/share', 'hubs.share', { acl: ['Hub:READ', 'Hub:SHARE'], body: 'auth.share' }),

  // Content repositories
  v2('GET', '/hubs/:hubId/content-repositories', 'repositories.list', { fn: [FN('REPOSITORY', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/content-repositories', 'repositories.create', {
    fn: [FN('REPOSITORY', 'CREATE')],
    acl: ['Hub:READ', 'Hub:CREATE_REPOSITORY'], body: 'repositories.create' }),
  v2('GET', '/hubs/:hubId/content-repositories/search/findByFeaturesContaining', 'repositories.findByFeature', { acl: HUB_READ }),
  v2('GET', '/content-repositories/:repoId', 'repositories.get', { fn: [FN('REPOSITORY', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-repositories/:repoId', 'repositories.update', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'], body: 'repositories.update' }),
  v2('DELETE', '/content-repositories/:repoId', 'repositories.remove', {
    fn: [FN('REPOSITORY', 'DELETE')],
    acl: ['Hub:READ', 'ContentRepository:DELETE'],
  }),
  v2('POST', '/content-repositories/:repoId/features', 'repositories.addFeature', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('DELETE', '/content-repositories/:repoId/features', 'repositories.removeFeature', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('POST', '/content-repositories/:repoId/share', 'repositories.share', { acl: ['Hub:READ', 'ContentRepository:SHARE'], body: 'auth.share' }),
  v2('POST', '/content-repositories/:repoId/item-locales', 'repositories.setItemLocales', { body: 'repositories.itemLocales',
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('PATCH', '/content-repositories/:repoId/item-locales', 'repositories.setItemLocales', { body: 'repositories.itemLocales',
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('POST', '/content-repositories/:repoId/localization-group', 'repositories.joinLocalizationGroup', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'], body: 'repositories.joinGroup' }),
  v2('GET', '/content-repositories/:repoId/localization-group/locales', 'repositories.localizationGroupLocales', {
    fn: [FN('REPOSITORY', 'READ')],
    acl: HUB_READ,
  }),
];
