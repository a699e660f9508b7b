import fc from 'fast-check';
import type { RouteDef } from '../../../src/server/core/route-table.js';
import { schemaFamilies } from '../../../src/server/families.js';
import type { BodySchema } from '../../../src/server/core/validate.js';
import { EDGE_VALUES, NASTY_STRINGS, acceptArb, replaceScalar, authArb, bodyArb, contentTypeArb, idChoiceArb, queryArb, shapedBy, type AuthChoice, type Body, type IdChoice, type Pools } from './arbitraries.js';
import type { World } from './world.js';

// One fuzzed request per sample: which ids fill the path, the query, who asks, the headers and
// the body. Specs are plain data drawn by fast-check from a seed; they are resolved against the
// current world (ids of real resources) only when sent, so a rebuilt world keeps a run replayable.

export interface Spec {
  ids: Record<string, IdChoice>;
  query: [string, string][] | null;
  rawQuery: boolean;
  auth: AuthChoice;
  accept: string | null;
  contentType: string | null;
  body: Body | null;
}

export const ERROR_CONTENT_TYPE = 'application/hal+json;charset=UTF-8';

/** encodeURIComponent that does not throw on lone surrogates (they become U+FFFD, as UTF-8 would have them). */
const encode = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

const paramNames = (path: string) => [...path.matchAll(/[:*](\w+)/g)].map((m) => m[1]!);

/** The zod schema a route validates its body with, when it declares one. */
export async function bodySchemaOf(route: RouteDef): Promise<BodySchema | undefined> {
  if (!route.body) return undefined;
  const [family, name] = route.body.split('.') as [string, string];
  const mod = (await schemaFamilies[family]!()) as Record<string, BodySchema>;
  return mod[name];
}

/** What a route's body is, when it is not JSON. */
function bodyFormat(route: RouteDef): 'form' | 'text' | 'json' {
  return route.op === 'oauth.issueToken' ? 'form' : route.textBody ? 'text' : 'json';
}

const FORM_BODIES = [
  'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret',
  'grant_type=client_credentials&client_id=sandbox-admin&client_secret=wrong',
  'grant_type=password&client_id=sandbox-admin&client_secret=sandbox-secret',
  'grant_type=client_credentials&client_id=&client_secret=',
  'grant_type=client_credentials&client_id=%ZZ&client_secret=%',
  'grant_type=client_credentials&client_id=sandbox-admin&client_id=other&client_secret=sandbox-secret',
  `grant_type=client_credentials&client_id=${'x'.repeat(100_000)}&client_secret=y`,
  '&&&==&',
];

/**
 * Requests for one route. Bodies start from valid examples of the operation (when the world has
 * some) or from values shaped by the route's schema, and are then broken in every way bodyArb
 * knows; queries start from valid examples, one value replaced by a nasty one, or are random.
 */
export function specArb(route: RouteDef, schema: BodySchema | undefined, pools: Pools, examples: unknown[] = [], queries: [string, string][][] = []): fc.Arbitrary<Spec> {
  const names = paramNames(route.path);
  const ids = fc.record(Object.fromEntries(names.map((n) => [n, idChoiceArb])) as Record<string, fc.Arbitrary<IdChoice>>);
  const generated = schema ? shapedBy(schema.schema, pools) : fc.jsonValue({ maxDepth: 2 });
  const shaped = examples.length ? fc.oneof({ arbitrary: fc.constantFrom(...examples), weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
  const format = bodyFormat(route);
  const takesBody = route.method !== 'GET';
  // Routes with a body schema nearly always get one; other writes sometimes get one anyway.
  const bodyChance = route.body || format !== 'json' ? 19 : 4;
  const someBody: fc.Arbitrary<Body> =
    format === 'form'
      ? fc.oneof({ arbitrary: fc.constantFrom(...FORM_BODIES).map((payload) => ({ payload, kind: 'form' })), weight: 3 }, { arbitrary: bodyArb(shaped), weight: 1 })
      : format === 'text'
        ? fc.oneof(fc.string({ maxLength: 200 }).map((payload) => ({ payload, kind: 'text' })), bodyArb(shaped))
        : bodyArb(shaped);
  const body: fc.Arbitrary<Body | null> = takesBody ? fc.oneof({ arbitrary: someBody, weight: bodyChance }, { arbitrary: fc.constant(null), weight: 20 - bodyChance }) : fc.constant(null);
  const ownType = format === 'form' ? 'application/x-www-form-urlencoded' : format === 'text' ? 'text/html' : null;
  const contentType = ownType ? fc.oneof(fc.constantFrom<string | null>('application/json', null), contentTypeArb) : contentTypeArb;
  const query: fc.Arbitrary<[string, string][] | null> = fc.oneof(
    { arbitrary: fc.constant(null), weight: queries.length ? 3 : 5 },
    { arbitrary: queryArb(pools), weight: 2 },
    ...(queries.length
      ? [
          { arbitrary: fc.constantFrom(...queries), weight: 3 },
          {
            arbitrary: fc
              .tuple(fc.constantFrom(...queries), fc.nat(), fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.constantFrom(...EDGE_VALUES.map(String))))
              .map(([q, n, v]) => q.map(([k, old], i): [string, string] => [k, i === n % q.length ? v : old])),
            weight: 3,
          },
        ]
      : []),
  );
  // A clean request (admin token, ids of real resources, the right headers, a body from the
  // examples) with up to three of its parts made hostile: deep enough to reach the handlers,
  // broken enough to probe every check on the way.
  const dims = ['ids', 'query', 'auth', 'accept', 'contentType', 'body', 'rawQuery'] as const;
  const hostile = fc.oneof(
    { arbitrary: fc.constant<(typeof dims)[number][]>([]), weight: 2 },
    // Bodies can be broken in more ways than any other part: they are drawn three times as often.
    { arbitrary: fc.subarray([...dims, 'body', 'body'] as (typeof dims)[number][], { minLength: 1, maxLength: 3 }), weight: 7 },
  );
  const clean = {
    ids: fc.record(Object.fromEntries(names.map((n) => [n, fc.nat().map((k): IdChoice => ({ kind: 'valid', n: k }))])) as Record<string, fc.Arbitrary<IdChoice>>),
    // A clean query is absent, a valid example, or one with a value at the edge of its range.
    query: queries.length
      ? fc.oneof(
          fc.constant(null),
          fc.constantFrom(...queries),
          fc.tuple(fc.constantFrom(...queries), fc.nat(), fc.constantFrom(...EDGE_VALUES.map(String))).map(([q, n, v]) => q.map(([k, old], i): [string, string] => [k, i === n % q.length ? v : old])),
        )
      : fc.constant(null),
    // A clean body is a valid example, or one with a value at the edge of its range (huge numbers, far dates).
    body:
      takesBody && (route.body || format !== 'json')
        ? format === 'json'
          ? fc.oneof(
              { arbitrary: shaped.map((v): Body => ({ payload: JSON.stringify(v) ?? 'null', kind: 'json-shaped' })), weight: 3 },
              { arbitrary: fc.tuple(shaped, fc.nat(), fc.constantFrom(...EDGE_VALUES)).map(([v, n, edge]): Body => ({ payload: JSON.stringify(replaceScalar(v, n, edge)) ?? 'null', kind: 'edge-values' })), weight: 2 },
            )
          : someBody
        : fc.constant(null),
  };
  return fc
    .record({
      hostile,
      ids,
      cleanIds: clean.ids,
      query,
      cleanQuery: clean.query,
      rawQuery: fc.boolean(),
      auth: authArb,
      accept: acceptArb,
      contentType,
      body,
      cleanBody: clean.body,
    })
    .map((r): Spec => {
      const h = new Set(r.hostile);
      return {
        ids: h.has('ids') ? r.ids : r.cleanIds,
        query: h.has('query') ? r.query : r.cleanQuery,
        rawQuery: h.has('rawQuery') && r.rawQuery,
        auth: h.has('auth') ? r.auth : { kind: 'admin' },
        accept: h.has('accept') ? r.accept : 'application/hal+json',
        contentType: h.has('contentType') ? r.contentType : (ownType ?? 'application/json'),
        body: h.has('body') ? r.body : r.cleanBody,
      };
    });
}

export interface Tokens {
  admin: string;
  member: string;
}

export interface Resolved {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** What makes this request hostile, for the tally by kind. */
  kinds: string[];
}

export function resolve(baseUrl: string, route: RouteDef, spec: Spec, world: World, tokens: Tokens): Resolved {
  const { method, path } = route;
  const kinds: string[] = [];
  const idKinds = new Set<string>();
  const filled = path.replace(/[:*](\w+)/g, (_, name: string) => {
    const choice = spec.ids[name]!;
    idKinds.add(choice.kind);
    if (choice.kind === 'valid') {
      const options = world.params[name];
      if (!options?.length) throw new Error(`the world has no valid ${name}`);
      return encode(options[choice.n % options.length]!);
    }
    if (choice.kind === 'missing') return encode(choice.value);
    return choice.raw ? choice.value : encode(choice.value);
  });
  if (idKinds.size) kinds.push(`id:${idKinds.has('garbage') ? 'garbage' : idKinds.has('missing') ? 'missing' : 'valid'}`);
  let url = baseUrl + filled;
  if (spec.query) {
    const q = new URLSearchParams(spec.query.map(([k, v]) => [k, v.replace(/^:valid$/, world.hubId)]));
    url += (url.includes('?') ? '&' : '?') + q.toString();
    kinds.push('query');
  }
  if (spec.rawQuery) {
    url += `${url.includes('?') ? '&' : '?'}%ZZ=%E0%A4%A&=&&page=%&size=%FF`;
    kinds.push('raw-query');
  }
  const headers: Record<string, string> = {};
  switch (spec.auth.kind) {
    case 'admin':
      headers.authorization = `Bearer ${tokens.admin}`;
      break;
    case 'member':
      headers.authorization = `Bearer ${tokens.member}`;
      kinds.push('auth:restricted');
      break;
    case 'none':
      kinds.push('auth:none');
      break;
    case 'header':
      headers.authorization = spec.auth.value(tokens.admin);
      kinds.push('auth:broken');
      break;
  }
  if (spec.accept !== null) headers.accept = spec.accept;
  if (spec.accept !== 'application/hal+json') kinds.push(spec.accept === null || /^(\*\/\*|application\/json)$/.test(spec.accept) ? 'accept:other' : 'accept:wrong');
  let body: string | Uint8Array | undefined;
  if (spec.body && method !== 'GET') {
    body = spec.body.payload;
    kinds.push(`body:${spec.body.kind}`);
    if (spec.contentType !== null) headers['content-type'] = spec.contentType;
    const expected = { form: /^application\/x-www-form-urlencoded/, text: /^text\/html/, json: /^application\/(hal\+)?json/ }[bodyFormat(route)];
    if (spec.contentType === null || !expected.test(spec.contentType)) kinds.push('content-type:wrong');
  }
  return { method, url, headers, body, kinds };
}

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** Sends a request with a deadline: a hang is an error like any other. */
export async function send(r: Resolved, timeoutMs: number): Promise<Answer> {
  const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body as BodyInit | undefined, signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

/** Content Delivery 2 paths and the staging preview domain: their own errors are {"error":{type, message, data}} (the vendor SDK's shape). */
const DELIVERY_PATH = /^\/(?:domain\/|(?:cdn\/[^/]+\/)?content\/(?:id|key|filter|fetch|hierarchies)(?:\/|$))/;
const pathOf = (url: string) => (/^https?:\/\//.test(url) ? url.replace(/^https?:\/\/[^/]*/, '') : url).split('?')[0]!;

/**
 * What is wrong with an answer, or null when it is fine: a 2xx, or a 4xx with the error body
 * ({errors:[{level, code, message}]}, hal+json; on a delivery path also {error:{type, message}}).
 * Never a 5xx, a 1xx or 3xx.
 */
export function problemWith(method: string, a: Answer, url?: string): string | null {
  if (a.status >= 500) return `server error ${a.status}`;
  if (a.status >= 200 && a.status < 300) {
    if (a.text && a.contentType?.includes('json')) {
      try {
        JSON.parse(a.text);
      } catch {
        return `${a.status} with a JSON content type but a body that is not JSON`;
      }
    }
    return null;
  }
  if (a.status < 400) return `unexpected status ${a.status}`;
  if (method === 'HEAD') return null;
  if (a.contentType !== ERROR_CONTENT_TYPE) return `${a.status} with content type ${a.contentType}`;
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    return `${a.status} with a body that is not JSON`;
  }
  if (url !== undefined && DELIVERY_PATH.test(pathOf(url)) && body?.error !== undefined) {
    const e = body.error;
    return typeof e?.type === 'string' && e.type && typeof e.message === 'string' && e.message ? null : `${a.status} with a malformed delivery error ${JSON.stringify(e).slice(0, 200)}`;
  }
  if (!Array.isArray(body?.errors) || body.errors.length === 0) return `${a.status} without an errors array`;
  for (const e of body.errors) {
    if (e?.level !== 'ERROR' || typeof e.code !== 'string' || !e.code || typeof e.message !== 'string' || !e.message) return `${a.status} with a malformed error entry ${JSON.stringify(e).slice(0, 200)}`;
  }
  return null;
}

/** A request as a failure report shows it: long values cut. */
export function describe(r: Resolved): string {
  const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const body = r.body === undefined ? '' : typeof r.body === 'string' ? clip(r.body) : `<${r.body.length} bytes>`;
  return `${r.method} ${clip(r.url, 200)} headers=${clip(JSON.stringify(r.headers), 200)} body=${body}`;
}

/** A stable number for a route (seeds do not shift when routes are added to the table). */
export function routeSeed(seed: number, route: { method: string; path: string }): number {
  let h = seed | 0;
  for (const ch of `${route.method} ${route.path}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}
