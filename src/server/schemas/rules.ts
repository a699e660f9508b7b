import type { Db } from '../core/db.js';
import { badRequest, validationFailed, type ErrorDetail } from '../core/errors.js';
import { CORE_REF_PATTERN, DIALECT_PATTERN } from './docs.js';
import { SchemaDocumentError, compile } from './json-schema.js';
import { findSchemaDocument, type ValidationLevel } from './store.js';

const CHOOSER = /\/cms\/schema\/v1\/core#\/definitions\/(image-link|video-link)$/;

/**
 * Checks a content type schema document for a hub and returns it parsed: JSON, the service
 * dialect as $schema, an id URL equal to schemaId, type object, compilable with every $ref
 * resolvable, and for the SLOT validation level no image or video chooser property.
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
  if (typeof schema.$schema !== 'string' || !DIALECT_PATTERN.test(schema.$schema)) {
    fail('body.$schema', 'must be the service dialect, …/cms/schema/v1/schema#', schema.$schema ?? null);
  }
  const id = schemaDocumentId(schema);
  if (id === undefined) fail('body.id', 'is required: the schema id URL', schema.id ?? schema.$id ?? null);
  else if (id !== schemaId) fail('body.id', `must equal schemaId (${schemaId})`, id);
  if (schema.type !== 'object') fail('body.type', "must be 'object'", schema.type ?? null);
  if (level === 'SLOT') for (const property of chooserProperties(schema)) fail(property, 'image and video chooser properties are not allowed in a slot schema (validation type SLOT)');
  if (problems.length) throw validationFailed(problems);

  try {
    compile({ ...schema, id: schemaId }, (ref) => (ref === schemaId ? undefined : findSchemaDocument(db, hubId, ref)));
  } catch (err) {
    if (!(err instanceof SchemaDocumentError)) throw err;
    throw validationFailed(err.problems.map((p) => ({ entity: 'ContentTypeSchema', property: p.property === 'body' ? 'body' : `body.${p.property}`, message: `${p.property}: ${p.message}`, invalidValue: p.invalidValue })));
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

/**
 * Inlines every $ref of a schema document that points at another schema of the hub, with that
 * schema's own internal refs, so the result stands alone. Core refs and refs within the document
 * itself stay. 400 for a ref to no schema of the hub or to a missing part of one, and for a cycle
 * through other schemas (it cannot be inlined).
 */
export function inlineSchemaRefs(db: Db, hubId: string, doc: Record<string, unknown>): Record<string, unknown> {
  const rootUri = documentUri(doc);
  const documents = new Map<string, unknown>([[rootUri, doc]]);
  const fail = (code: string, property: string, ref: string, message: string) =>
    badRequest(`${property}: ${message}`, { code, entity: 'ContentTypeSchema', property, invalidValue: ref });

  const expand = (node: unknown, docUri: string, path: string, open: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((v, i) => expand(v, docUri, `${path}[${i}]`, open));
    if (!node || typeof node !== 'object') return node;
    const n = node as Record<string, unknown>;
    if (typeof n.$ref === 'string' && !CORE_REF_PATTERN.test(n.$ref)) {
      const where = `${path}.$ref`;
      const { uri, fragment } = splitRef(n.$ref, docUri);
      if (uri === rootUri) return docUri === rootUri ? n : { $ref: `#${fragment}` };
      const key = `${uri}#${fragment}`;
      if (open.includes(key)) throw fail('CIRCULAR_SCHEMA_REF', where, n.$ref, `${key} refers back to itself through other schemas and cannot be inlined`);
      if (!documents.has(uri)) documents.set(uri, findSchemaDocument(db, hubId, uri));
      const target = documents.get(uri);
      if (target === undefined) throw fail('SCHEMA_REF_NOT_FOUND', where, n.$ref, `references ${uri}, which is not a schema of this hub`);
      const part = atPointer(target, fragment);
      if (part === undefined) throw fail('SCHEMA_REF_NOT_FOUND', where, n.$ref, `${uri} has nothing at #${fragment}`);
      return expand(part === target ? withoutIdentity(part as Record<string, unknown>) : part, uri, path, [...open, key]);
    }
    return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, expand(v, docUri, `${path}.${k}`, open)]));
  };
  return expand(doc, rootUri, 'body', []) as Record<string, unknown>;
}

/** The id URL a schema document names itself by (draft-04 id, or $id). */
export function schemaDocumentId(doc: Record<string, unknown>): string | undefined {
  const id = doc.id ?? doc.$id;
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
