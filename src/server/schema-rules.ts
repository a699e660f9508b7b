import type { Db } from './store/db.js';
import { validationFailed, type ErrorDetail } from './errors.js';
import { DIALECT_PATTERN } from './schema-docs.js';
import { SchemaDocumentError, compile } from './json-schema.js';
import { findSchemaDocument, type ValidationLevel } from './store/schemas.js';

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
  let doc: unknown = body;
  if (typeof body === 'string') {
    try {
      doc = JSON.parse(body);
    } catch (err) {
      fail('body', `is not valid JSON (${(err as Error).message})`);
      throw validationFailed(problems);
    }
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    fail('body', 'must be a JSON Schema object');
    throw validationFailed(problems);
  }
  const schema = doc as Record<string, unknown>;
  if (typeof schema.$schema !== 'string' || !DIALECT_PATTERN.test(schema.$schema)) {
    fail('body.$schema', 'must be the service dialect, …/cms/schema/v1/schema#', schema.$schema ?? null);
  }
  const id = schema.id ?? schema.$id;
  if (typeof id !== 'string') fail('body.id', 'is required: the schema id URL', null);
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
