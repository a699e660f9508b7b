import type { Db } from '../core/db.js';
import { badRequest, serviceError, validationFailed, type ErrorDetail } from '../core/errors.js';
import { DRAFT_07, SERVICE_REF_PATTERN, coreDocument, draftOf, localizationDocument, type Draft } from './docs.js';
import { SchemaDocumentError, boundsAs, compile, declaredDraft, metaProblems } from './json-schema.js';
import { nonLinearPatterns } from './linear-regex.js';
import { findSchemaDocument, type ValidationLevel } from './store.js';

const CHOOSER = /\/cms\/schema\/v1\/core#\/definitions\/(image-link|video-link)$/;

/**
 * Checks a content type schema document for a hub and returns it parsed: JSON, a dialect the
 * service accepts as $schema (the service dialect or plain JSON Schema draft-04, both with their
 * identity in `id`, or JSON Schema draft-07 with its identity in `$id`), an identity equal to schemaId, JSON Schema of
 * that draft, type object when a type is given (a slot must give it; a definitions-only document
 * is a PARTIAL or a CONTENT_TYPE), patterns RE2 can run, and for the SLOT validation level no
 * image or video chooser property. References to other schemas of the hub may name schemas not
 * registered yet: they resolve when content is validated.
 */
export function checkSchemaDocument(db: Db, hubId: string, schemaId: string, body: string | Record<string, unknown>, level: ValidationLevel): Record<string, unknown> {
  const problems: ErrorDetail[] = [];
  const fail = (property: string, message: string, invalidValue: unknown = null) => problems.push({ entity: 'ContentTypeSchema', property, message: `${property}: ${message}`, invalidValue });

  if (!/^https?:\/\/[^\s/]+\/\S*$/.test(schemaId)) fail('schemaId', 'must be an http(s) URL', schemaId);
  const read = readDocument(body);
  if (!read.ok) {
    fail('body', read.problem);
    throw validationFailed(problems);
  }
  const schema = read.doc;
  const draft = draftOf(schema.$schema);
  if (!draft) fail('body.$schema', `must be the service dialect (…/cms/schema/v1/schema#), JSON Schema draft-04 (http://json-schema.org/draft-04/schema#) or draft-07 (${DRAFT_07})`, schema.$schema ?? null);
  const identityKey = draft === 'draft-07' ? '$id' : 'id';
  const id = schemaDocumentId(schema);
  if (id === undefined) fail(`body.${identityKey}`, 'is required: the schema id URL', schema.id ?? schema.$id ?? null);
  else if (id !== schemaId) fail(`body.${identityKey}`, `must equal schemaId (${schemaId})`, id);
  if (schema.type !== undefined ? schema.type !== 'object' : level === 'SLOT') fail('body.type', "must be 'object'", schema.type ?? null);
  if (level === 'SLOT') for (const property of chooserProperties(schema)) fail(property, 'image and video chooser properties are not allowed in a slot schema (validation type SLOT)');
  for (const p of nonLinearPatterns(schema)) fail(p.property, p.message, p.pattern);
  if (problems.length) throw validationFailed(problems);
  // One problem per place: a keyword that fails several ways names its place once.
  const meta = metaProblems(schema).filter((p, i, all) => all.findIndex((q) => q.property === p.property) === i);
  if (meta.length) throw validationFailed(meta.map((p) => ({ entity: 'ContentTypeSchema', property: p.property, message: `${p.property}: ${p.message}`, invalidValue: p.invalidValue })));

  try {
    compile({ ...schema, [identityKey]: schemaId }, (ref) => (ref === schemaId ? undefined : findSchemaDocument(db, hubId, ref)));
  } catch (err) {
    if (!(err instanceof SchemaDocumentError)) throw err;
    // A reference to a schema not registered yet (or a cycle through one) resolves, or not, when content is validated.
    const late = err.code && err.problems.every((p) => !p.local);
    if (!late) throw validationFailed(err.problems.map((p) => ({ entity: 'ContentTypeSchema', property: p.property === 'body' ? 'body' : `body.${p.property}`, message: `${p.property}: ${p.message}`, invalidValue: p.invalidValue })));
  }
  return schema;
}

/** Paths (body.properties.x...) of properties that are image or video choosers, at any depth. */
function chooserProperties(schema: Record<string, unknown>): string[] {
  const found: string[] = [];
  const refersToChooser = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    const n = node as Record<string, unknown>;
    if (typeof n.$ref === 'string' && CHOOSER.test(n.$ref)) return true;
    const meta = (n.properties as Record<string, { properties?: { schema?: { enum?: unknown[] } } }> | undefined)?._meta?.properties?.schema?.enum;
    if (Array.isArray(meta) && meta.some((v) => typeof v === 'string' && CHOOSER.test(v))) return true;
    return ['allOf', 'anyOf', 'oneOf'].some((k) => Array.isArray(n[k]) && (n[k] as unknown[]).some(refersToChooser)) || (n.items !== undefined && (Array.isArray(n.items) ? n.items.some(refersToChooser) : refersToChooser(n.items)));
  };
  const walk = (node: unknown, path: string): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    for (const [name, child] of Object.entries((n.properties as Record<string, unknown>) ?? {})) {
      const here = `${path}.properties.${name}`;
      if (refersToChooser(child)) found.push(here);
      else walk(child, here);
      const items = (child as { items?: unknown })?.items;
      if (items && !refersToChooser(child)) walk(items, `${here}.items`);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(n[k])) (n[k] as unknown[]).forEach((c, i) => walk(c, `${path}.${k}[${i}]`));
    const defs = n.definitions as Record<string, unknown> | undefined;
    for (const [name, def] of Object.entries(defs ?? {})) walk(def, `${path}.definitions.${name}`);
  };
  walk(schema, 'body');
  return found;
}

type ReadResult = { ok: true; doc: Record<string, unknown> } | { ok: false; problem: string };

/** A schema body (JSON text or an object) as an object, or what is wrong with it. */
function readDocument(body: string | Record<string, unknown>): ReadResult {
  let doc: unknown = body;
  if (typeof body === 'string') {
    try {
      doc = JSON.parse(body);
    } catch (err) {
      return { ok: false, problem: `is not valid JSON (${(err as Error).message})` };
    }
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, problem: 'must be a JSON Schema object' };
  return { ok: true, doc: doc as Record<string, unknown> };
}

/** A schema body as an object; 400 naming body when it is not JSON or not an object. */
export function parseSchemaBody(body: string | Record<string, unknown>): Record<string, unknown> {
  const read = readDocument(body);
  if (!read.ok) throw validationFailed([{ entity: 'ContentTypeSchema', property: 'body', message: `body: ${read.problem}`, invalidValue: null }]);
  return read.doc;
}

/** How deep inlined references may nest (each level inlines a part of a schema into another). */
const MAX_INLINE_DEPTH = 256;

export interface InlineOptions {
  /**
   * The effective schema: core and localization refs inlined from the built-in documents, and
   * refs within the document too (a recursive one stays a local ref).
   */
  effective?: boolean;
  /** Every part, and the document itself, in this draft's form (partInDraft). */
  draft?: Draft;
  /** Filled with the draft of the document and of every schema of the hub a part is inlined from. */
  drafts?: Set<Draft>;
}

/**
 * Inlines every $ref of a schema document that points at another schema of the hub, with that
 * schema's own internal refs, so the result stands alone. Core refs and refs within the document
 * itself stay (unless `effective`). 400 naming every ref to no schema of the hub or to a missing
 * part of one, and for a cycle through other schemas (it cannot be inlined).
 */
export function inlineSchemaRefs(db: Db, hubId: string, doc: Record<string, unknown>, options: InlineOptions = {}): Record<string, unknown> {
  const rootUri = documentUri(doc);
  const documents = new Map<string, unknown>([[rootUri, doc]]);
  const missing: ErrorDetail[] = [];
  const detail = (code: string, property: string, ref: string, message: string): ErrorDetail => ({ code, entity: 'ContentTypeSchema', property, invalidValue: ref, message: `${property}: ${message}` });
  const load = (uri: string): unknown => {
    if (!documents.has(uri)) documents.set(uri, builtinDocument(uri) ?? findSchemaDocument(db, hubId, uri));
    return documents.get(uri);
  };

  /** A part of the document at `uri`, whole documents without their identity, in the draft asked for. */
  const partFrom = (uri: string, target: unknown, part: unknown): unknown => {
    const whole = part === target ? withoutIdentity(part as Record<string, unknown>) : part;
    if (builtinDocument(uri)) return whole;
    const from = declaredDraft(target as Record<string, unknown>);
    options.drafts?.add(from);
    return options.draft && from !== options.draft ? partInDraft(whole, options.draft) : whole;
  };

  const expand = (node: unknown, docUri: string, path: string, open: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((v, i) => expand(v, docUri, `${path}[${i}]`, open));
    if (!node || typeof node !== 'object') return node;
    const n = node as Record<string, unknown>;
    if (typeof n.$ref === 'string' && (options.effective || !SERVICE_REF_PATTERN.test(n.$ref))) {
      const where = `${path}.$ref`;
      const { uri, fragment } = splitRef(n.$ref, docUri);
      const key = `${uri}#${fragment}`;
      if (open.length >= MAX_INLINE_DEPTH) throw badRequest(`${where}: references nest more than ${MAX_INLINE_DEPTH} deep and cannot be inlined`, { code: 'SCHEMA_REF_TOO_DEEP', entity: 'ContentTypeSchema', property: where, invalidValue: n.$ref });
      if (uri === rootUri && (!options.effective || docUri !== rootUri || open.includes(key))) return docUri === rootUri ? n : { $ref: `#${fragment}` };
      // The effective schema keeps a recursion through other schemas as a local definition.
      if (open.includes(key) && options.effective) return { $ref: `#/definitions/${hoist(key)}` };
      if (open.includes(key)) throw badRequest(`${where}: ${key} refers back to itself through other schemas and cannot be inlined`, { code: 'CIRCULAR_SCHEMA_REF', entity: 'ContentTypeSchema', property: where, invalidValue: n.$ref });
      const target = load(uri);
      const part = target === undefined ? undefined : atPointer(target, fragment);
      if (part === undefined) {
        missing.push(detail('SCHEMA_REF_NOT_FOUND', where, n.$ref, target === undefined ? `references ${uri}, which is not a schema of this hub` : `${uri} has nothing at #${fragment}`));
        return n;
      }
      return expand(partFrom(uri, target, part), uri, path, [...open, key]);
    }
    return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, expand(v, docUri, `${path}.${k}`, open)]));
  };
  // Recursive parts of other schemas, each once under a local definition name.
  const hoisted = new Map<string, string>();
  const hoist = (key: string): string => {
    let name = hoisted.get(key);
    if (!name) {
      const base = `${key.split('#')[0]!.split('/').pop()!.replace(/\.json$/, '')}${key.split('#')[1] ? `-${key.split('#')[1]!.split('/').pop()}` : ''}`.replace(/[^A-Za-z0-9_-]/g, '-');
      name = base;
      for (let n = 2; Object.hasOwn((doc.definitions as object) ?? {}, name) || [...hoisted.values()].includes(name); n++) name = `${base}-${n}`;
      hoisted.set(key, name);
    }
    return name;
  };
  const rootDraft = declaredDraft(doc);
  options.drafts?.add(rootDraft);
  const root = options.draft && rootDraft !== options.draft ? partInDraft(doc, options.draft) : doc;
  const out = expand(root, rootUri, 'body', []) as Record<string, unknown>;
  const definitions: Record<string, unknown> = {};
  for (let i = 0, keys = [...hoisted.keys()]; i < keys.length; i++, keys = [...hoisted.keys()]) {
    const key = keys[i]!;
    const [uri, fragment] = [key.slice(0, key.indexOf('#')), key.slice(key.indexOf('#') + 1)];
    const target = load(uri);
    const part = atPointer(target, fragment);
    definitions[hoisted.get(key)!] = expand(partFrom(uri, target, part), uri, `body.definitions.${hoisted.get(key)}`, [key]);
  }
  if (missing.length) throw serviceError(400, missing);
  if (hoisted.size) out.definitions = { ...((out.definitions as Record<string, unknown>) ?? {}), ...definitions };
  return out;
}

/** The service's own documents (core, localization) by their URL on any host. */
function builtinDocument(uri: string): object | undefined {
  const m = /^(https?:\/\/[^/]+)\/cms\/schema\/v1\/(core|localization)$/.exec(uri);
  if (!m) return undefined;
  return m[2] === 'core' ? coreDocument(m[1]!) : localizationDocument(m[1]!);
}

/**
 * The effective schema of a content type: every reference inlined (effective inlineSchemaRefs)
 * and every allOf member that can be merged lifted into its parent, so top-level `properties`
 * lists every property an item can have. A member stays in allOf when merging would change what
 * it means (a keyword the parent has otherwise, additionalProperties or patternProperties).
 */
export function effectiveSchema(db: Db, hubId: string, doc: Record<string, unknown>): Record<string, unknown> {
  const drafts = new Set<Draft>();
  const inlined = inlineSchemaRefs(db, hubId, doc, { effective: true, drafts });
  if (drafts.size < 2) return mergeAllOf(inlined) as Record<string, unknown>;
  // Parts of both drafts: the merged document is draft-07, which can say what each part meant
  // (draft-04's exclusive bounds convert; draft-07's numeric bounds, const, contains,
  // propertyNames and if/then/else have no draft-04 form), with the identity in $id.
  const { id: _id, $id: _id7, $schema: _dialect, ...merged } = mergeAllOf(inlineSchemaRefs(db, hubId, doc, { effective: true, draft: 'draft-07' })) as Record<string, unknown>;
  const identity = schemaDocumentId(doc);
  return { $schema: DRAFT_07, ...(identity === undefined ? {} : { $id: identity }), ...merged };
}

/**
 * A part of one draft as another reads it: exclusive bounds in that draft's form and, into
 * draft-07, no nested `$id` (draft-04 ignores it; draft-07 would take it as the base of the
 * references under it, which the inlining has already resolved).
 */
function partInDraft(part: unknown, draft: Draft): unknown {
  const converted = boundsAs(part, draft);
  if (draft !== 'draft-07') return converted;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).filter(([k, v]) => !(k === '$id' && typeof v === 'string')).map(([k, v]) => [k, k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? v : walk(v)]));
  };
  return walk(converted);
}

const MERGED = new Set(['properties', 'required', 'definitions']);
const ANNOTATIONS = new Set(['title', 'description', '$schema', 'id', '$id']);
function mergeAllOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeAllOf);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? v : mergeAllOf(v);
  if (!Array.isArray(out.allOf)) return out;
  const kept: unknown[] = [];
  for (const member of out.allOf as unknown[]) {
    if (!canMerge(out, member)) {
      kept.push(member);
      continue;
    }
    for (const [k, v] of Object.entries(member as Record<string, unknown>)) {
      if (k === 'properties' || k === 'definitions') out[k] = mergeMaps(out[k], v);
      else if (k === 'required') out.required = [...new Set([...((out.required as string[]) ?? []), ...(v as string[])])];
      else if (!(k in out)) out[k] = v;
    }
  }
  if (kept.length) out.allOf = kept;
  else delete out.allOf;
  return out;
}

function canMerge(parent: Record<string, unknown>, member: unknown): boolean {
  if (!member || typeof member !== 'object' || Array.isArray(member)) return false;
  return Object.entries(member).every(([k, v]) => {
    if (k === 'additionalProperties' || k === 'patternProperties' || k === '$ref') return false;
    if (MERGED.has(k)) return k === 'required' ? Array.isArray(v) : !!v && typeof v === 'object' && !Array.isArray(v);
    return !(k in parent) || ANNOTATIONS.has(k) || JSON.stringify(parent[k]) === JSON.stringify(v);
  });
}

/** Two properties (or definitions) maps as one; a name in both must satisfy both. */
function mergeMaps(a: unknown, b: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((a as Record<string, unknown>) ?? {}) };
  for (const [name, schema] of Object.entries(b as Record<string, unknown>)) {
    if (!(name in out) || JSON.stringify(out[name]) === JSON.stringify(schema)) out[name] = schema;
    else out[name] = mergeAllOf({ allOf: [out[name], schema] });
  }
  return out;
}

/** The id URL a schema document names itself by ($id in draft-07, id in the service dialect). */
export function schemaDocumentId(doc: Record<string, unknown>): string | undefined {
  const id = draftOf(doc.$schema) === 'draft-07' ? (doc.$id ?? doc.id) : (doc.id ?? doc.$id);
  return typeof id === 'string' ? id : undefined;
}

function documentUri(doc: Record<string, unknown>): string {
  return schemaDocumentId(doc)?.split('#')[0] ?? '';
}

/** An inlined whole document drops its id and $schema: a nested id would change ref scope (and clash when inlined twice). */
function withoutIdentity(doc: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, $id: _id2, $schema: _dialect, ...rest } = doc;
  return rest;
}

/** The document URI (absolute, relative refs resolved against the referring document) and the fragment of a $ref. */
function splitRef(ref: string, docUri: string): { uri: string; fragment: string } {
  const hash = ref.indexOf('#');
  const address = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? '' : ref.slice(hash + 1);
  if (!address) return { uri: docUri, fragment };
  if (/^[a-z][a-z0-9+.-]*:/i.test(address) || !docUri) return { uri: address, fragment };
  try {
    return { uri: new URL(address, docUri).href, fragment };
  } catch {
    return { uri: address, fragment };
  }
}

/** The value at a JSON pointer fragment (`/definitions/a~1b`), or undefined. */
function atPointer(doc: unknown, fragment: string): unknown {
  if (fragment === '') return doc;
  if (!fragment.startsWith('/')) return undefined;
  let value = doc;
  for (const raw of fragment.slice(1).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!value || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
