import { created, noContent, ok, type Reply, type RequestContext } from '../core/context.js';
import { badRequest, notFound, serviceError, validationFailed, type ErrorDetail } from '../core/errors.js';
import { link } from '../core/hal.js';
import { hubs, type Hub } from '../hubs/index.js';
import { items, type ContentItem } from '../items/index.js';
import { IRI_BASE, parseLocaleList, queryResult, stagedContent, stagingHub, stagingViewPoint, type LocaleEntry } from '../delivery/index.js';
import { RENDERED_PAGE_HEADERS, contentHtml, escapeHtml } from './html.js';
import { MAX_TEMPLATE_CHARS, TEMPLATE_NAME, deleteTemplate, findTemplate, hubTemplates, isBuiltIn, saveTemplate, type Template, fill } from './templates.js';

// Virtual staging: the rendering and the staging query (Content Delivery 1) as the vendor's
// delivery SDK calls them, served on the sandbox's own origin without a token, like the delivery
// side of the real service; the store is the hub's name (or id). A hub with
// settings.virtualStagingEnvironment.hostname is also served on that host, where `staging` names
// that hub and no other hub is reachable (delivery/host.ts; which routes a staging host reaches:
// core/host.ts). Content is the latest versions, and what is live now on the sandbox clock: a slot
// shows its winning edition's content. Wrapper templates are registered per hub on the sandbox admin prefix.

/** An active item of the store's hub; 404 otherwise. */
function stagedItem(ctx: RequestContext, hub: Hub): ContentItem {
  const id = ctx.params.itemId!;
  const item = items(ctx.db).get(id);
  if (!item || item.status !== 'ACTIVE' || item.hubId !== hub.id) throw notFound('ContentItem', id);
  return item;
}

function templateNamed(ctx: RequestContext, hubId: string, name: string): Template {
  const template = findTemplate(ctx.db, hubId, name);
  if (template) return template;
  throw serviceError(404, {
    code: 'TEMPLATE_NOT_FOUND',
    entity: 'Template',
    property: 'template',
    invalidValue: name,
    message: `No template named '${name}': use default, raw, or one the hub registered (GET /__sandbox/hubs/${hubId}/templates)`,
  });
}

/** The `locale` list of a staging request (what the SDK adds when `locale` is configured); 400 naming it when malformed. Empty is none. */
function localesOf(ctx: RequestContext): LocaleEntry[] | undefined {
  const raw = ctx.query.get('locale');
  if (raw === null || raw === '') return undefined;
  const list = parseLocaleList(raw);
  if ('problem' in list) throw badRequest(list.problem, { property: 'locale', invalidValue: raw.slice(0, 256) });
  return list.entries;
}

/**
 * GET /v1/content/{store}/content-item/{id}?template=: the item (or slot) rendered with the named
 * wrapper template, its localized fields resolved for `locale` (crparam.* are accepted; the
 * sandbox's templates do not read them). X-Amp-Edition-* name the edition a slot shows.
 */
export function render(ctx: RequestContext): Reply {
  const hub = storeHub(ctx, ctx.params.store!)!;
  const item = stagedItem(ctx, hub);
  const template = templateNamed(ctx, item.hubId, ctx.query.get('template') || 'default');
  const locales = localesOf(ctx);
  const point = stagingViewPoint(ctx.db, ctx.url, ctx.now(), hub.id);
  const staged = stagedContent(ctx.db, item, point.atMs, point.pins, locales);
  const content = template.content === 'json' ? escapeHtml(JSON.stringify(queryResult(staged), null, 2)) : contentHtml(staged);
  const edition: Record<string, string> = staged.edition
    ? { 'X-Amp-Edition-ID': staged.edition.id, 'X-Amp-Edition-Start-Time': staged.edition.start, 'X-Amp-Edition-End-Time': staged.edition.end }
    : {};
  return { status: 200, headers: { ...RENDERED_PAGE_HEADERS, ...edition }, raw: { contentType: 'text/html; charset=utf-8', text: fill(template, { content, label: escapeHtml(item.label) }) } };
}

const QUERY_EXAMPLE = `{"sys.iri":"${IRI_BASE}<content item id>"}`;

/** The iri the query filters by: the only form of query the sandbox answers. */
function iriOf(raw: string | null): string {
  if (!raw) throw badRequest(`Query parameter 'query' is required: a JSON object such as ${QUERY_EXAMPLE}`, { property: 'query', invalidValue: raw });
  let query: unknown;
  try {
    query = JSON.parse(raw);
  } catch {
    throw badRequest(`Query parameter 'query' is not JSON; send a JSON object such as ${QUERY_EXAMPLE}`, { property: 'query', invalidValue: raw });
  }
  const iri = (query as Record<string, unknown> | null)?.['sys.iri'];
  if (typeof iri !== 'string' || Object.keys(query as object).length !== 1) {
    throw badRequest(`Query parameter 'query' must filter by one iri: ${QUERY_EXAMPLE}`, { property: 'query', invalidValue: raw });
  }
  return iri;
}

/**
 * The hub a store names: its name or id; on a staging host `staging` (or the host's hub named
 * otherwise) and nothing else. Without a store: the host's hub, or any hub on the sandbox origin.
 */
function storeHub(ctx: RequestContext, store: string | null): Hub | undefined {
  const host = stagingHub(ctx.db, ctx.url);
  if (!store) return host;
  if (host && store === 'staging') return host;
  const named = hubs(ctx.db).get(store) ?? hubs(ctx.db).find({ where: 'name = ?', params: [store] });
  if (named && (!host || host.id === named.id)) return named;
  throw serviceError(404, {
    code: 'STORE_NOT_FOUND',
    property: 'store',
    invalidValue: store,
    message: host ? `This staging address serves the store ${host.name}, not ${store}` : `No store named ${store}`,
  });
}

/** GET /cms/content/query?store=&query=&locale=: the item the iri names with its linked items, as JSON-LD (empty when none), localized fields resolved for `locale`. */
export function query(ctx: RequestContext) {
  const iri = iriOf(ctx.query.get('query'));
  const locales = localesOf(ctx);
  const hub = storeHub(ctx, ctx.query.get('store'));
  const item = iri.startsWith(IRI_BASE) ? items(ctx.db).get(iri.slice(IRI_BASE.length)) : undefined;
  const visible = item !== undefined && item.status === 'ACTIVE' && (!hub || item.hubId === hub.id);
  const point = hub ? stagingViewPoint(ctx.db, ctx.url, ctx.now(), hub.id) : { atMs: ctx.now() };
  return ok(queryResult(visible ? stagedContent(ctx.db, item, point.atMs, point.pins, locales) : null));
}

// Templates of a hub, on the sandbox admin prefix.

function adminHub(ctx: RequestContext): Hub {
  const hub = hubs(ctx.db).get(ctx.params.hubId!);
  if (!hub) throw notFound('Hub', ctx.params.hubId);
  return hub;
}

const templatesHref = (ctx: RequestContext, hubId: string) => `${ctx.origin}/__sandbox/hubs/${hubId}/templates`;

/** GET /__sandbox/hubs/{hubId}/templates: the built-in templates and the hub's own. */
export function listTemplates(ctx: RequestContext) {
  const hub = adminHub(ctx);
  return ok({ _embedded: { templates: hubTemplates(ctx.db, hub.id) }, _links: { self: link(templatesHref(ctx, hub.id)) } });
}

function templateProblems(name: string, html: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const problem = (property: string, invalidValue: unknown, message: string) => problems.push({ entity: 'Template', property, invalidValue, message });
  if (!TEMPLATE_NAME.test(name)) problem('name', name, 'name: use 1 to 64 letters, digits, hyphens and underscores, starting with a letter or digit');
  if (isBuiltIn(name)) problem('name', name, `name: '${name}' is a built-in template and cannot be replaced`);
  if (html.length > MAX_TEMPLATE_CHARS) problem('body', html.length, `body: a template holds at most ${MAX_TEMPLATE_CHARS} characters`);
  if (!/\{\{\s*content\s*\}\}/.test(html)) problem('body', null, 'body: the HTML must contain the {{content}} placeholder ({{label}} is optional)');
  return problems;
}

/** PUT /__sandbox/hubs/{hubId}/templates/{name}, body: the HTML. 201 when new, 200 when replaced. */
export function putTemplate(ctx: RequestContext) {
  const hub = adminHub(ctx);
  const name = ctx.params.name!;
  const problems = templateProblems(name, ctx.bodyText);
  if (problems.length) throw validationFailed(problems);
  const isNew = saveTemplate(ctx.db, hub.id, name, ctx.bodyText, ctx.nowIso());
  const location = `${templatesHref(ctx, hub.id)}/${encodeURIComponent(name)}`;
  const view = { ...findTemplate(ctx.db, hub.id, name)!, _links: { self: link(location), templates: link(templatesHref(ctx, hub.id)) } };
  return isNew ? created(view, location) : ok(view, location);
}

/** DELETE /__sandbox/hubs/{hubId}/templates/{name}. */
export function removeTemplate(ctx: RequestContext) {
  const hub = adminHub(ctx);
  if (!deleteTemplate(ctx.db, hub.id, ctx.params.name!)) throw notFound('Template', ctx.params.name);
  return noContent();
}
