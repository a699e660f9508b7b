import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv-draft-04';
import {
  CANONICAL_ORIGIN,
  CORE_PATH,
  DRAFT_07,
  LOCALIZATION_PATH,
  SERVICE_REF_PATTERN,
  coreDocument,
  draftOf,
  localizationDocument,
  type Draft,
} from './docs.js';
import { linearFormat, re2RegExp } from './linear-regex.js';

// Content validation with ajv, by the draft each schema declares: the service dialect is
// draft-04 (ajv-draft-04), draft-07 documents run on ajv's draft-07. Loaded only when an item
// body or a schema is checked. Every pattern runs on RE2 (linear-regex.ts).
const require = createRequire(import.meta.url);

export interface SchemaProblem {
  property: string;
  message: string;
  invalidValue: unknown;
  /** SCHEMA_REF_NOT_FOUND or CIRCULAR_SCHEMA_REF for references; absent for other problems. */
  code?: string;
  /** For a reference problem: whether it lies within the document alone (no other schema can fix it). */
  local?: boolean;
}

/** A schema document that cannot be used: its problems, each naming where. */
export class SchemaDocumentError extends Error {
  constructor(readonly problems: SchemaProblem[]) {
    super(problems.map((p) => `${p.property}: ${p.message}`).join('; '));
  }
  /** The reference code when every problem is an unresolved reference (a reference that may resolve later). */
  get code(): string | undefined {
    return this.problems[0]?.code;
  }
}

/** Looks up another schema of the hub by its id URL (for $refs between schemas). */
export type SchemaLookup = (id: string) => object | undefined;

const META: Record<Draft, string> = { 'draft-04': 'http://json-schema.org/draft-04/schema#', 'draft-07': DRAFT_07 };
const IDENTITY: Record<Draft, 'id' | '$id'> = { 'draft-04': 'id', 'draft-07': '$id' };
const cache = new Map<string, ValidateFunction>();
const CACHE_LIMIT = 500;

type AjvModule = typeof import('ajv-draft-04');
type Ajv = InstanceType<AjvModule['default']>;

/** Formats: RE2 for every regular-expression format RE2 can run; the rest bounded in length. */
let formats: Record<string, unknown> | undefined;
const SERVICE_FORMATS = ['markdown'];
const FORMAT_INPUT_LIMIT = 2_048;
function linearFormats(): Record<string, unknown> {
  if (formats) return formats;
  const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> };
  formats = {};
  for (const [name, def] of Object.entries(fullFormats)) {
    if (!(def instanceof RegExp)) {
      formats[name] = def;
      continue;
    }
    // Lookaround (url, hostname, duration) is beyond RE2: the backtracking engine on bounded input.
    formats[name] = linearFormat(def) ?? ((s: string) => s.length <= FORMAT_INPUT_LIMIT && def.test(s));
  }
  // The service's own: a markdown text field (its editor's hint, any text is valid).
  for (const name of SERVICE_FORMATS) formats[name] = true;
  return formats;
}

function newAjv(draft: Draft): Ajv {
  const Ajv = (draft === 'draft-07' ? (require('ajv') as { default: AjvModule['default'] }) : (require('ajv-draft-04') as AjvModule)).default;
  // logger: false: ajv warns of formats it does not know (ignored, as the service ignores them) on
  // the console, under -o json and across progress bars. No library writes to the terminal.
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false, logger: false, code: { regExp: re2RegExp }, formats: linearFormats() as never });
  ajv.addSchema(asDraft(coreDocument(CANONICAL_ORIGIN), draft));
  ajv.addSchema(asDraft(localizationDocument(CANONICAL_ORIGIN), draft));
  return ajv;
}

/** One ajv per draft for meta-validation of documents (no compiled schemas kept). */
const checkers = new Map<Draft, Ajv>();
const checker = (draft: Draft) => checkers.get(draft) ?? checkers.set(draft, newAjv(draft)).get(draft)!;

/** The draft a document declares; documents declaring neither dialect are read as draft-04 (the service dialect). */
export const declaredDraft = (doc: Record<string, unknown>): Draft => draftOf(doc.$schema) ?? 'draft-04';

/**
 * Rewrites a schema for offline validation: core and localization $refs on any host point at
 * the built-in documents.
 */
export function normalizeSchema<T>(doc: T): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const service = k === '$ref' && typeof v === 'string' ? SERVICE_REF_PATTERN.exec(v) : null;
        if (service) out[k] = `${CANONICAL_ORIGIN}${service[1] === 'core' ? CORE_PATH : LOCALIZATION_PATH}${service[2] ?? ''}`;
        else out[k] = walk(v);
      }
      return out;
    }
    return value;
  };
  return walk(doc) as T;
}

/**
 * A document as the given draft reads it: identity under that draft's key, $schema its meta
 * schema, and exclusive bounds in that draft's form (a boolean beside the bound in draft-04, the
 * bound itself in draft-07). A schema of one draft may refer to a schema of the other.
 */
export function asDraft<T extends object>(doc: T, draft: Draft): T {
  const from = declaredDraft(doc as Record<string, unknown>);
  const { id, $id, $schema: _dialect, ...rest } = doc as Record<string, unknown>;
  const identity = from === 'draft-07' ? ($id ?? id) : (id ?? $id);
  const body = from === draft ? rest : boundsAs(rest, draft);
  return { ...(identity === undefined ? {} : { [IDENTITY[draft]]: identity }), $schema: META[draft], ...body } as T;
}

const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
/**
 * A schema (part) with its exclusive bounds in the given draft's form. To draft-04, the tighter of
 * the bound and the exclusive bound wins (draft-07 `maximum: 10, exclusiveMaximum: 5` is
 * `maximum: 5, exclusiveMaximum: true`).
 */
export function boundsAs<T>(node: T, draft: Draft): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = VALUE_KEYWORDS.has(k) ? v : walk(v);
    for (const [bound, exclusive] of [['maximum', 'exclusiveMaximum'], ['minimum', 'exclusiveMinimum']] as const) {
      if (draft === 'draft-07' && typeof out[exclusive] === 'boolean') {
        if (out[exclusive] === true && typeof out[bound] === 'number') {
          out[exclusive] = out[bound];
          delete out[bound];
        } else delete out[exclusive];
      } else if (draft === 'draft-04' && typeof out[exclusive] === 'number') {
        const limit = out[exclusive];
        const inclusive = out[bound];
        const tighter = typeof inclusive !== 'number' || (bound === 'maximum' ? limit <= inclusive : limit >= inclusive);
        if (tighter) out[bound] = limit;
        out[exclusive] = tighter;
      }
    }
    return out;
  };
  return walk(node) as T;
}

/** The $ref targets of a schema in other documents (without fragment), other than the service's own documents. */
export function externalRefs(doc: unknown): string[] {
  const refs = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && /^https?:\/\//.test(v) && !SERVICE_REF_PATTERN.test(v)) refs.add(v.split('#')[0]!);
        else walk(v);
      }
    }
  };
  walk(doc);
  return [...refs];
}

/** Problems of a document as JSON Schema of the draft it declares (meta-validation), each naming where under `root`. */
export function metaProblems(doc: Record<string, unknown>, root = 'body'): SchemaProblem[] {
  const draft = declaredDraft(doc);
  const ajv = checker(draft);
  if (ajv.validateSchema(asDraft(normalizeSchema(doc), draft))) return [];
  return (ajv.errors ?? []).map((e) => ({ property: `${root}${e.instancePath.replace(/\//g, '.')}`, message: `is not valid JSON Schema (${draft}): ${e.message ?? 'invalid'}`, invalidValue: null }));
}

/**
 * Validators of self-contained schemas by the schema's own text: a content type's schema (its id
 * and version) gives the same text until it changes, so a write pays one lookup instead of a
 * normalisation, a hash and a lookup. Schemas that $ref other hub schemas are not kept here:
 * those may change on their own, so they go through `compile` (which reads them) every time.
 */
const selfContained = new Map<string, ValidateFunction>();

/** Compiles a schema (and the hub schemas it references); throws SchemaDocumentError when it is unusable. */
export function compile(doc: Record<string, unknown>, lookup: SchemaLookup = () => undefined): ValidateFunction {
  const text = JSON.stringify(doc);
  const known = selfContained.get(text);
  if (known) return known;
  const draft = declaredDraft(doc);
  const normalized = asDraft(normalizeSchema(doc), draft);
  const referenced = collectReferenced(normalized, draft, lookup);
  const key = createHash('sha1').update(JSON.stringify([draft, normalized, referenced])).digest('base64');
  let hit = cache.get(key);
  if (!hit) hit = compileNew(normalized, referenced, draft, key);
  if (!referenced.length) {
    if (selfContained.size >= CACHE_LIMIT) selfContained.delete(selfContained.keys().next().value!);
    selfContained.set(text, hit);
  }
  return hit;
}

function compileNew(normalized: Record<string, unknown>, referenced: object[], draft: Draft, key: string): ValidateFunction {
  const rootId = identityOf(normalized);
  assertNoEndlessRefs(normalized, referenced);
  const ajv = newAjv(draft);
  let fn: ValidateFunction | undefined;
  try {
    for (const other of referenced) ajv.addSchema(other as object);
    // Registered under its own id, so its internal #/definitions refs and refs back to it from
    // the schemas it references resolve.
    if (rootId) {
      ajv.addSchema(normalized, rootId);
      fn = ajv.getSchema(rootId) as ValidateFunction | undefined;
    }
    fn ??= ajv.compile(normalized);
  } catch (err) {
    const missing = (err as { missingRef?: string }).missingRef;
    if (missing) {
      const local = !!rootId && (missing === rootId || missing.startsWith(`${rootId}#`));
      throw new SchemaDocumentError([{ property: '$ref', code: 'SCHEMA_REF_NOT_FOUND', local, message: `${missing} does not resolve`, invalidValue: missing }]);
    }
    throw new SchemaDocumentError([{ property: 'body', message: (err as Error).message, invalidValue: null }]);
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, fn);
  return fn;
}

const identityOf = (doc: Record<string, unknown>): string | undefined => {
  const id = doc.$id ?? doc.id;
  return typeof id === 'string' && id ? id.split('#')[0] : undefined;
};

/** The hub schemas a schema refers to, transitively, as its draft reads them; SCHEMA_REF_NOT_FOUND names the first that is not there. */
function collectReferenced(doc: Record<string, unknown>, draft: Draft, lookup: SchemaLookup): object[] {
  const out: object[] = [];
  const seen = new Set<string>([identityOf(doc) ?? '']);
  const queue = externalRefs(doc);
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const found = lookup(id);
    if (!found) throw new SchemaDocumentError([{ property: '$ref', code: 'SCHEMA_REF_NOT_FOUND', message: `references ${id}, which is not a schema of this hub`, invalidValue: id }]);
    const normalized = asDraft(normalizeSchema(found), draft);
    // Registered under the id it was looked up by.
    out.push({ ...normalized, [IDENTITY[draft]]: id });
    queue.push(...externalRefs(normalized));
  }
  return out;
}

/**
 * Refuses references that can never resolve: a chain of $refs (through allOf/anyOf/oneOf/not/
 * if/then/else, which look at the same value) that comes back to where it started without
 * descending into a property or an item. A validator would recurse without end.
 */
function assertNoEndlessRefs(root: Record<string, unknown>, referenced: object[]): void {
  const docs = new Map<string, unknown>();
  for (const d of referenced) docs.set(identityOf(d as Record<string, unknown>) ?? '', d);
  const rootId = identityOf(root) ?? '';
  docs.set(rootId, root);
  const done = new Set<string>();
  const open: string[] = [];
  // The refs a node applies to its own value, each resolved to uri#fragment.
  const sameValueRefs = (node: unknown, base: string, out: string[]): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const n = node as Record<string, unknown>;
    if (typeof n.$ref === 'string') {
      const hash = n.$ref.indexOf('#');
      const uri = hash < 0 ? n.$ref : n.$ref.slice(0, hash);
      out.push(`${uri || base}#${hash < 0 ? '' : n.$ref.slice(hash + 1)}`);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(n[k])) for (const c of n[k] as unknown[]) sameValueRefs(c, base, out);
    for (const k of ['not', 'if', 'then', 'else']) sameValueRefs(n[k], base, out);
  };
  const visit = (key: string): void => {
    if (done.has(key)) return;
    if (open.includes(key)) {
      const ref = key.replace(/#$/, '');
      const chain = open.slice(open.indexOf(key));
      const local = chain.every((k) => k.startsWith(`${rootId}#`));
      throw new SchemaDocumentError([{ property: '$ref', code: 'CIRCULAR_SCHEMA_REF', local, message: `${ref} refers back to itself (${[...open.slice(open.indexOf(key)), key].join(' -> ')}) and can never resolve`, invalidValue: ref }]);
    }
    // A bound on chains, so neither this walk nor a validator runs out of stack.
    if (open.length >= MAX_REF_CHAIN) {
      throw new SchemaDocumentError([{ property: '$ref', code: 'SCHEMA_REF_TOO_DEEP', local: true, message: `${key} is reached through more than ${MAX_REF_CHAIN} references in a row`, invalidValue: key }]);
    }
    const hash = key.indexOf('#');
    const uri = key.slice(0, hash);
    const target = docs.has(uri) ? pointerIn(docs.get(uri), key.slice(hash + 1)) : undefined;
    open.push(key);
    const next: string[] = [];
    sameValueRefs(target, uri, next);
    for (const n of next) visit(n);
    open.pop();
    done.add(key);
  };
  // Every ref anywhere in the documents is a starting point.
  const starts = (node: unknown, base: string): void => {
    if (Array.isArray(node)) return node.forEach((v) => starts(v, base));
    if (!node || typeof node !== 'object') return;
    const out: string[] = [];
    sameValueRefs(node, base, out);
    out.forEach(visit);
    for (const [k, v] of Object.entries(node)) if (!VALUE_KEYWORDS.has(k)) starts(v, base);
  };
  for (const [uri, d] of docs) starts(d, uri);
}

/** The longest chain of $refs followed without reaching a property or an item. */
export const MAX_REF_CHAIN = 256;

function pointerIn(doc: unknown, fragment: string): unknown {
  if (fragment === '' ) return doc;
  if (!fragment.startsWith('/')) return undefined;
  let v = doc;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!v || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** Validates a value; every problem names its property path under `root` (body.title, body.items[0].id). */
export function validate(fn: ValidateFunction, value: unknown, root = 'body'): SchemaProblem[] {
  if (fn(value)) return [];
  return (fn.errors ?? []).map((e) => toProblem(e, value, root));
}

function toProblem(e: ErrorObject, value: unknown, root: string): SchemaProblem {
  const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') segments.push(String((e.params as { missingProperty: string }).missingProperty));
  const property = segments.reduce((p, s) => (/^\d+$/.test(s) ? `${p}[${s}]` : `${p}.${s}`), root);
  const message = e.keyword === 'required' ? 'is required' : (e.message ?? 'is not valid');
  return { property, message, invalidValue: e.keyword === 'required' ? null : pointer(value, e.instancePath) };
}

function pointer(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const s of path.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}
