import fc from 'fast-check';
import type { z } from 'zod';

// fast-check arbitraries for hostile requests: values shaped like a route's body schema (from
// its zod definition), the same with wrong types and unknown fields, random JSON, broken and
// trailing JSON text, huge strings and arrays, deep nesting, and nasty strings for paths and
// query parameters.

/** Strings that have broken parsers before: numbers that are not, dates at the edges, syntax. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '9007199254740993',
  '99999999999999999999999',
  '0x1f',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '%',
  '%00',
  '%ZZ',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0041',
  '😀',
  'ǅ',
  'a,b,,c',
  ',',
  ',,,',
  'name,desc',
  'createdDate,sideways',
  'label,asc,desc',
  'version,asc',
  ',asc',
  '-',
  ':',
  '"',
  'a:b',
  '"unterminated',
  '-apple-orange',
  'label:',
  ':apple',
  '*',
  'NEAR(a b',
  'a OR',
  'AND',
  '^x',
  '(',
  "' OR 1=1 --",
  '"; DROP TABLE hubs; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '{{content}}',
  '{{#each}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00.000Z',
  '+999999-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '0000-00-00T00:00:00Z',
  '2099-02-30T00:00:00Z',
  '2026-01-01',
  '1970-01-01T00:00:00Z',
  '2026-13-45',
  'P1D',
  '-15m',
  '999999999d',
  '1e400d',
  'rgb(300,-1,0)',
  'READ,EDIT,NOPE',
  'ACTIVE,ARCHIVED,',
  'basic',
  'withSettings',
  'sandbox://search-index/x',
  'http://127.0.0.1:1/x',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'a'.repeat(300),
  '\n\r\t',
];

/** Values of the wrong type for any field. */
export const WRONG_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  9007199254740993,
  '',
  'x',
  [],
  [null],
  [1, 'a', {}],
  {},
  { $ref: '#' },
  JSON.parse('{"__proto__":{"admin":true}}'),
  'a'.repeat(5000),
];

export interface Pools {
  /** Strings that mean something to the service (ids of real resources, URIs, enum values). */
  strings: string[];
}

const anyString = fc.oneof(
  { arbitrary: fc.string({ maxLength: 20 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 },
);

const checksOf = (def: any): any[] => (def.checks ?? []).map((c: any) => c._zod?.def ?? {});

/**
 * An arbitrary of values shaped like a zod schema: the right keys with leaves that are often valid
 * (from the pools) and often not. It is a fuzzer's generator, not a faithful inverse of zod.
 */
export function shapedBy(schema: z.ZodType, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  const def = (schema as any)._zod?.def;
  if (!def || depth > 8) return fc.constant(null);
  const recur = (s: z.ZodType) => shapedBy(s, pools, depth + 1);
  const meaningful = pools.strings.length ? fc.constantFrom(...pools.strings) : fc.constant('x');
  switch (def.type) {
    case 'string': {
      const checks = checksOf(def);
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = checks.find((c) => c.check === 'max_length')?.maximum ?? 40;
      const options: fc.Arbitrary<string>[] = [meaningful, anyString, fc.string({ minLength: Math.min(min, 40), maxLength: Math.max(Math.min(max, 40), Math.min(min, 40)) })];
      const regex = checks.find((c) => c.check === 'string_format' && c.format === 'regex')?.pattern;
      // fast-check cannot generate from every pattern (lookaheads): those get the other strings only.
      if (regex instanceof RegExp) {
        try {
          options.push(fc.stringMatching(regex, { size: 'small' }));
        } catch {
          /* not generable */
        }
      }
      if (def.format === 'datetime' || checks.some((c) => c.format === 'datetime')) options.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
      return fc.oneof(...options);
    }
    case 'number': {
      const checks = checksOf(def);
      const isInt = checks.some((c) => c.format === 'safeint' || c.format === 'int32');
      const lo = checks.find((c) => c.check === 'greater_than')?.value;
      const hi = checks.find((c) => c.check === 'less_than')?.value;
      const within = isInt
        ? fc.integer({ min: Math.max(lo ?? -1000, -1e9), max: Math.min(hi ?? 1000, 1e9) })
        : fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true });
      return fc.oneof({ arbitrary: within, weight: 4 }, { arbitrary: fc.constantFrom(0, 1, -1, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 0.5), weight: 1 });
    }
    case 'int':
      return fc.integer({ min: -1000, max: 1000 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...(Object.values(def.entries) as unknown[]));
    case 'array': {
      const checks = checksOf(def);
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = checks.find((c) => c.check === 'max_length')?.maximum ?? 4;
      return fc.array(recur(def.element), { minLength: Math.min(min, 4), maxLength: Math.max(Math.min(min, 4), Math.min(max, 4)) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodType[]).map(recur));
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(shape)) {
        model[key] = recur(value);
        const t = (value as any)._zod?.def?.type;
        if (t !== 'optional' && t !== 'default' && t !== 'prefault') required.push(key);
      }
      return fc.record(model, { requiredKeys: required });
    }
    case 'record':
      return fc.dictionary(def.keyType?._zod?.def?.type === 'enum' ? fc.constantFrom(...(Object.values(def.keyType._zod.def.entries) as string[])) : fc.oneof(meaningful, fc.string({ maxLength: 8 })), recur(def.valueType), { maxKeys: 3 });
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
    case 'success':
      return recur(def.innerType);
    case 'nullable':
      return fc.oneof({ arbitrary: recur(def.innerType), weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map(recur));
    case 'intersection':
      return fc.tuple(recur(def.left), recur(def.right)).map(([a, b]) => (a && b && typeof a === 'object' && typeof b === 'object' ? { ...a, ...b } : a));
    case 'pipe':
      return recur(def.in?._zod?.def?.type === 'transform' ? def.out : def.in);
    case 'lazy':
      return recur(def.getter());
    case 'transform':
    case 'any':
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** Replaces one leaf (or the whole value) of a JSON value: the n-th visited, modulo their count. */
export function replaceLeaf(value: unknown, n: number, replacement: unknown): unknown {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  const path = paths[n % paths.length]!;
  if (!path.length) return replacement;
  const copy = structuredClone(value) as any;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path[path.length - 1]!] = replacement;
  return copy;
}

/** Replaces one scalar leaf (string, number, boolean, null) of a JSON value: the n-th, modulo their count. */
export function replaceScalar(value: unknown, n: number, replacement: unknown): unknown {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    else paths.push(path);
  };
  walk(value, []);
  if (!paths.length) return value;
  const path = paths[n % paths.length]!;
  if (!path.length) return replacement;
  const copy = structuredClone(value) as any;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path[path.length - 1]!] = replacement;
  return copy;
}

/** Values at the edges of what numbers, dates and durations can hold. */
export const EDGE_VALUES: unknown[] = [
  1e300,
  -1e300,
  8.64e15,
  -8.64e15,
  2 ** 53 + 2,
  -(2 ** 31) - 1,
  2 ** 32,
  1e-320,
  -0.5,
  0,
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '0000-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '999999999w',
  '-999999999d',
  '1e400d',
  '9007199254740993',
];

export interface Body {
  /** What goes on the wire (bytes for non-UTF-8 garbage). */
  payload: string | Uint8Array;
  kind: string;
}

const DEEP = '\u0000deep\u0000';
const deep = (depth: number, open: string, close: string, leaf: string) => open.repeat(depth) + leaf + close.repeat(depth);

/** Bodies for a route: shaped by its schema (when it has one) and every flavour of broken. */
export function bodyArb(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<Body> {
  const json = (kind: string) => (v: unknown): Body => ({ payload: JSON.stringify(v) ?? 'null', kind });
  const hugeSizes = fc.constantFrom(10_000, 100_000, 1_000_000);
  return fc.oneof(
    { arbitrary: shaped.map(json('json-shaped')), weight: 6 },
    {
      arbitrary: fc.tuple(shaped, fc.nat(), fc.oneof(fc.constantFrom(...WRONG_VALUES), fc.jsonValue({ maxDepth: 2 }))).map(([v, n, r]) => json('wrong-types')(replaceLeaf(v, n, r))),
      weight: 5,
    },
    {
      arbitrary: fc
        .tuple(shaped, fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', '_links', '_embedded', 'id', 'hubId', 'admin', 'version')), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }))
        .map(([v, extra]) => json('unknown-fields')(v && typeof v === 'object' && !Array.isArray(v) ? { ...extra, ...v, ...Object.fromEntries(Object.entries(extra).filter(([k]) => !(k in (v as object)))) } : extra)),
      weight: 3,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json('json-random')), weight: 3 },
    { arbitrary: fc.tuple(shaped, fc.nat(), fc.constantFrom(...EDGE_VALUES)).map(([v, n, edge]) => json('edge-values')(replaceScalar(v, n, edge))), weight: 3 },
    {
      // Broken JSON: truncated, a character swapped in, a quote dropped, or not JSON at all.
      arbitrary: fc.tuple(shaped, fc.nat(), fc.constantFrom('cut', 'inject', 'unquote', 'text')).map(([v, n, how]): Body => {
        const text = JSON.stringify(v) ?? 'null';
        const at = text.length ? n % text.length : 0;
        const broken =
          how === 'cut' ? text.slice(0, Math.max(1, at)) : how === 'inject' ? text.slice(0, at) + '\u0001}{,:"'[n % 6] + text.slice(at) : how === 'unquote' ? text.replace('"', '') : ['nope', '{a:1}', "{'a':1}", '{"a":1,}', '[1,]', '{"a":01}', '{"a":.5}', '{"a":NaN}', '{"a":"\\x41"}', '{"a":"\\u12"}', ']', '}{', '"', '{"', '\ufeff'][n % 15]!;
        return { payload: broken, kind: 'broken-json' };
      }),
      weight: 4,
    },
    {
      arbitrary: fc.tuple(shaped, fc.constantFrom(' trailing', '}}}', ',{"x":1}', '{"second":true}', '\u0000', ']', '"', '\n{"a":')).map(([v, tail]) => ({ payload: (JSON.stringify(v) ?? 'null') + tail, kind: 'trailing-json' })),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(shaped, fc.nat(), hugeSizes, fc.constantFrom('x', 'é', '😀', '"', '\\', ' ')).map(([v, n, size, ch]) => {
        const huge = ch.repeat(Math.ceil(size / ch.length));
        return json('huge-string')(replaceLeaf(v, n, huge));
      }),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(shaped, fc.nat(), fc.constantFrom(1_000, 20_000, 100_000), fc.constantFrom<unknown>(0, 'x', null, {}, { id: 'x' }, [])).map(([v, n, size, el]) =>
        json('huge-array')(replaceLeaf(v, n, Array.from({ length: size }, () => el))),
      ),
      weight: 1,
    },
    {
      // Deep nesting, alone or in place of one field of a shaped body (the text is built by hand:
      // JSON.stringify itself would overflow the stack).
      arbitrary: fc.tuple(shaped, fc.nat(), fc.constantFrom(64, 990, 20_000, 200_000), fc.constantFrom('array', 'object')).map(([v, n, d, how]): Body => {
        const nested = how === 'array' ? deep(d, '[', ']', '1') : deep(d, '{"a":', '}', '1');
        const text = JSON.stringify(replaceLeaf(v, n, DEEP)) ?? 'null';
        return { payload: text.replace(JSON.stringify(DEEP), nested), kind: 'deep-nesting' };
      }),
      weight: 1,
    },
    { arbitrary: fc.constantFrom('', ' ', '\n', 'null', '0', '""', '[]', '{}').map((payload) => ({ payload, kind: 'empty-or-scalar' })), weight: 2 },
    { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((payload) => ({ payload, kind: 'binary' })), weight: 1 },
  );
}

/** Path parameter values: ids of real resources (resolved at send time), missing ids and garbage. */
export type IdChoice = { kind: 'valid'; n: number } | { kind: 'missing'; value: string } | { kind: 'garbage'; value: string; raw: boolean };

export const idChoiceArb: fc.Arbitrary<IdChoice> = fc.oneof(
  { arbitrary: fc.nat().map((n): IdChoice => ({ kind: 'valid', n })), weight: 2 },
  {
    arbitrary: fc
      .oneof(
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 }),
        fc.uuid(),
        fc.constantFrom('5f00000000000000000000ff', '00000000-0000-0000-0000-000000000000', '1', '999999999', 'sandbox-admin'),
      )
      .map((value): IdChoice => ({ kind: 'missing', value })),
    weight: 2,
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.oneof(anyString, fc.constantFrom('..', '.', '%2e%2e', '%2F', '%', '%ZZ', '%C0%AF', '%00', '%FF%FE', 'a%20b', '*', 'x'.repeat(5000))), fc.boolean())
      .map(([value, raw]): IdChoice => ({ kind: 'garbage', value, raw })),
  },
);

/** Query parameters: names the service reads plus random ones; values from every pool. */
export const QUERY_NAMES = [
  'page',
  'size',
  'sort',
  'status',
  'projection',
  'feature',
  'query',
  'id',
  'folderId',
  'key',
  'epoch',
  'time',
  'at',
  'createdDate.dir',
  'cursor',
  'excludeHierarchicalChildren',
  'forwardToReplicas',
  'hubId',
  'ignoreSchemaValidation',
  'ignoreWarnings',
  'includedSlots',
  'lastModifiedDate',
  'limit',
  'offset',
  'parentId',
  'period',
  'permissions',
  'show-full',
  'slot',
  'sourceContentItemId',
  'sourceEditionId',
  'sourceEditionSlotId',
  'store',
  'template',
  'type',
  'types',
  'version',
  'rangeStart',
  'rangeEnd',
  'bounded',
  'startDate',
  'endDate',
  'tags',
  'includeReplicas',
  'search',
  'clickAnalytics',
  'orderBy',
  'direction',
  'hitsPerPage',
  'filters',
  'facetFilters',
];

export function queryArb(pools: Pools): fc.Arbitrary<[string, string][]> {
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 5 },
    { arbitrary: fc.constantFrom(...pools.strings), weight: 3 },
    { arbitrary: fc.integer({ min: -5, max: 2000 }).map(String), weight: 3 },
    { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
    { arbitrary: fc.constantFrom(2 ** 31, 2 ** 53, 1e21, 1e100).map(String), weight: 1 },
    { arbitrary: fc.constantFrom(10_000, 100_000).map((n) => 'q'.repeat(n)), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? ''), weight: 1 },
  );
  const name = fc.oneof({ arbitrary: fc.constantFrom(...QUERY_NAMES), weight: 8 }, { arbitrary: fc.string({ minLength: 1, maxLength: 10 }), weight: 1 });
  return fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 5 });
}

/** Who asks: the admin client, a restricted one, nobody, or a broken Authorization header. */
export type AuthChoice = { kind: 'admin' } | { kind: 'member' } | { kind: 'none' } | { kind: 'header'; value: (token: string) => string; label: string };

const authHeaders: { label: string; value: (token: string) => string }[] = [
  { label: 'empty', value: () => '' },
  { label: 'bearer-only', value: () => 'Bearer' },
  { label: 'bearer-undefined', value: () => 'Bearer undefined' },
  { label: 'lowercase-scheme', value: (t) => `bearer ${t}` },
  { label: 'basic', value: () => `Basic ${Buffer.from('sandbox-admin:sandbox-secret').toString('base64')}` },
  { label: 'tampered-signature', value: (t) => `Bearer ${t.slice(0, -2)}${t.endsWith('AA') ? 'BB' : 'AA'}` },
  { label: 'tampered-claims', value: (t) => `Bearer ${t.split('.')[0]}.${Buffer.from(JSON.stringify({ sub: 'sandbox-admin', exp: 9e15, iat: 0, jti: 'x' })).toString('base64url')}.${t.split('.')[2]}` },
  { label: 'alg-none', value: () => `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"sandbox-admin","exp":99999999999}').toString('base64url')}.` },
  { label: 'null-claims', value: () => `Bearer ${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('null').toString('base64url')}.x` },
  { label: 'not-base64', value: () => 'Bearer a.!!!.c' },
  { label: 'two-parts', value: () => 'Bearer a.b' },
  { label: 'huge', value: () => `Bearer ${'x'.repeat(8000)}` },
  { label: 'two-tokens', value: (t) => `Bearer ${t} ${t}` },
];

/** A caller other than the admin client: a restricted one, nobody, or a broken Authorization header. */
export const authArb: fc.Arbitrary<AuthChoice> = fc.oneof(
  { arbitrary: fc.constant<AuthChoice>({ kind: 'member' }), weight: 2 },
  { arbitrary: fc.constant<AuthChoice>({ kind: 'none' }), weight: 1 },
  { arbitrary: fc.constantFrom(...authHeaders).map((h): AuthChoice => ({ kind: 'header', ...h })), weight: 3 },
);

/** Accept headers other than plain JSON: odd but acceptable ones, and formats the service does not offer. */
export const acceptArb = fc.constantFrom<string | null>(null, '*/*', 'application/json', 'text/html', 'application/xml', 'application/json;q=0', 'image/png, text/*', 'garbage/???', ';;;', '');

/** Content types other than plain JSON: variants of it, wrong ones, and none. */
export const contentTypeArb = fc.constantFrom<string | null>(
  'application/json; charset=utf-8',
  'application/vnd.x+json',
  null,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  'json',
  ';',
  'application/json; charset=latin1',
  'text/html',
);
