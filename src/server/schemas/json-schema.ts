import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv-draft-04';
import { CANONICAL_ORIGIN, CORE_PATH, CORE_REF_PATTERN, DIALECT_PATTERN, coreDocument } from './docs.js';

// Content validation with ajv (draft-04). Loaded only when an item body or a schema is checked.
const require = createRequire(import.meta.url);

export interface SchemaProblem {
  property: string;
  message: string;
  invalidValue: unknown;
}

/** A schema document that cannot be used: its problems, each naming where. */
export class SchemaDocumentError extends Error {
  constructor(readonly problems: SchemaProblem[]) {
    super(problems.map((p) => `${p.property}: ${p.message}`).join('; '));
  }
}

/** Looks up another schema of the hub by its id URL (for $refs between schemas). */
export type SchemaLookup = (id: string) => object | undefined;

const CANONICAL_CORE = `${CANONICAL_ORIGIN}${CORE_PATH}`;
const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const cache = new Map<string, ValidateFunction>();
const CACHE_LIMIT = 500;

type AjvModule = typeof import('ajv-draft-04');
type Ajv = InstanceType<AjvModule['default']>;

function newAjv(): Ajv {
  const Ajv = (require('ajv-draft-04') as AjvModule).default;
  const addFormats = (require('ajv-formats') as { default: (ajv: Ajv) => Ajv }).default;
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false });
  addFormats(ajv);
  ajv.addSchema(coreDocument(CANONICAL_ORIGIN));
  return ajv;
}

/**
 * Rewrites a schema for offline validation: core $refs on any host point at the built-in core
 * document, and the service dialect becomes plain draft-04.
 */
export function normalizeSchema<T>(doc: T): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && CORE_REF_PATTERN.test(v)) out[k] = CANONICAL_CORE + (CORE_REF_PATTERN.exec(v)![1] ?? '');
        else if (k === '$schema' && typeof v === 'string' && DIALECT_PATTERN.test(v)) out[k] = DRAFT_04;
        else out[k] = walk(v);
      }
      return out;
    }
    return value;
  };
  return walk(doc) as T;
}

/** The external $ref targets of a schema (without fragment), other than the core document. */
export function externalRefs(doc: unknown): string[] {
  const refs = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && /^https?:\/\//.test(v) && !CORE_REF_PATTERN.test(v)) refs.add(v.split('#')[0]!);
        else walk(v);
      }
    }
  };
  walk(doc);
  return [...refs];
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
  const normalized = normalizeSchema(doc);
  const referenced = collectReferenced(normalized, lookup);
  const key = createHash('sha1').update(JSON.stringify([normalized, referenced])).digest('base64');
  let hit = cache.get(key);
  if (!hit) hit = compileNew(doc, normalized, referenced, key);
  if (!referenced.length) {
    if (selfContained.size >= CACHE_LIMIT) selfContained.delete(selfContained.keys().next().value!);
    selfContained.set(text, hit);
  }
  return hit;
}

function compileNew(doc: Record<string, unknown>, normalized: Record<string, unknown>, referenced: object[], key: string): ValidateFunction {
  const ajv = newAjv();
  try {
    for (const other of referenced) ajv.addSchema(other as object);
    const { id: _id, $id: _id2, ...anonymous } = normalized as Record<string, unknown>;
    // Compile under the document's own id so its internal #/definitions refs resolve.
    const fn = ajv.compile({ ...anonymous, id: typeof doc.id === 'string' ? doc.id : undefined });
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, fn);
    return fn;
  } catch (err) {
    throw new SchemaDocumentError([{ property: 'body', message: (err as Error).message, invalidValue: null }]);
  }
}

function collectReferenced(doc: unknown, lookup: SchemaLookup): object[] {
  const out: object[] = [];
  const seen = new Set<string>([String((doc as { id?: unknown }).id ?? '')]);
  const queue = externalRefs(doc);
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const found = lookup(id);
    if (!found) throw new SchemaDocumentError([{ property: '$ref', message: `references ${id}, which is not a schema of this hub`, invalidValue: id }]);
    const normalized = normalizeSchema(found);
    out.push(normalized);
    queue.push(...externalRefs(normalized));
  }
  return out;
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
