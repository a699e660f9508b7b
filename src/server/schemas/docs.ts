// The service's JSON Schema dialect and core definitions. Clients write them with the hosted
// service's schema host; the sandbox matches on the path, serves both documents itself at
// {origin}/cms/schema/v1/schema and {origin}/cms/schema/v1/core, and validates offline.

export const DIALECT_PATH = '/cms/schema/v1/schema';
export const CORE_PATH = '/cms/schema/v1/core';
export const LOCALIZATION_PATH = '/cms/schema/v1/localization';
export const DIALECT_PATTERN = /^https?:\/\/[^/]+\/cms\/schema\/v1\/schema#?$/;
/** JSON Schema draft-07, the other dialect the service accepts (identity in $id). */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const DRAFT_07_PATTERN = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** Plain JSON Schema draft-04 (identity in `id`), read like the service dialect: the vendor's sample blog ships its schemas so. */
export const DRAFT_04_PATTERN = /^https?:\/\/json-schema\.org\/draft-04\/schema#?$/;
export const CORE_REF_PATTERN = /^https?:\/\/[^/]+\/cms\/schema\/v1\/core(#.*)?$/;
export const LOCALIZATION_REF_PATTERN = /^https?:\/\/[^/]+\/cms\/schema\/v1\/localization(#.*)?$/;
/** A reference to one of the service's own documents (core or localization), on any host. */
export const SERVICE_REF_PATTERN = /^https?:\/\/[^/]+\/cms\/schema\/v1\/(core|localization)(#.*)?$/;

/** The JSON Schema draft a document's $schema declares, or undefined when it is none of the accepted dialects. */
export type Draft = 'draft-04' | 'draft-07';
export function draftOf(dialect: unknown): Draft | undefined {
  if (typeof dialect !== 'string') return undefined;
  if (DIALECT_PATTERN.test(dialect) || DRAFT_04_PATTERN.test(dialect)) return 'draft-04';
  if (DRAFT_07_PATTERN.test(dialect)) return 'draft-07';
  return undefined;
}

/** The host the validator uses internally for the core and dialect documents. */
export const CANONICAL_ORIGIN = 'https://schemas.sandbox.invalid';

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const linkMeta = (name: string) => ({
  type: 'object',
  properties: { schema: { type: 'string', pattern: `/cms/schema/v1/core#/definitions/${name}$` } },
  required: ['schema'],
});

/** An image or video link: the media item and where it is served from. */
const mediaLink = (name: string) => ({
  type: 'object',
  properties: {
    _meta: linkMeta(name),
    id: { type: 'string' },
    name: { type: 'string' },
    endpoint: { type: 'string' },
    defaultHost: { type: 'string' },
    mediaType: { type: 'string' },
  },
  required: ['_meta', 'id'],
});

export function coreDocument(origin: string) {
  return {
    id: `${origin}${CORE_PATH}`,
    $schema: DRAFT_04,
    title: 'Core definitions',
    definitions: {
      content: {
        type: 'object',
        properties: {
          _meta: {
            type: 'object',
            properties: {
              schema: { type: 'string', minLength: 1 },
              name: { type: 'string' },
              deliveryKey: { type: ['string', 'null'] },
              hierarchy: { type: 'object' },
            },
            required: ['schema'],
          },
        },
        required: ['_meta'],
      },
      'content-link': {
        type: 'object',
        properties: { _meta: linkMeta('content-link'), id: { type: 'string', minLength: 1 }, contentType: { type: 'string' } },
        required: ['_meta', 'id'],
      },
      'content-reference': {
        type: 'object',
        properties: { _meta: linkMeta('content-reference'), id: { type: 'string', minLength: 1 }, contentType: { type: 'string' } },
        required: ['_meta', 'id'],
      },
      'image-link': mediaLink('image-link'),
      'video-link': mediaLink('video-link'),
      'localized-value': {
        type: 'object',
        properties: { _meta: { type: 'object' }, values: { type: 'array', items: { type: 'object', properties: { locale: { type: 'string' }, value: {} }, required: ['locale', 'value'] } } },
        required: ['values'],
      },
    },
  };
}

/**
 * A localized value of one type: the core localized-value shape with `value` of that type. The
 * set (the service description names only localized-string): string, number, integer, boolean,
 * image (an image link), video (a video link). Each value names its locale.
 */
const localized = (value: object) => ({
  type: 'object',
  properties: {
    _meta: { type: 'object', properties: { schema: { type: 'string' } } },
    values: { type: 'array', items: { type: 'object', properties: { locale: { type: 'string', minLength: 1 }, value }, required: ['locale', 'value'] } },
  },
  required: ['values'],
});

export const LOCALIZED_KINDS = ['string', 'number', 'integer', 'boolean', 'image', 'video'] as const;

export function localizationDocument(origin: string) {
  const core = `${origin}${CORE_PATH}#/definitions`;
  const value: Record<(typeof LOCALIZED_KINDS)[number], object> = {
    string: { type: 'string' },
    number: { type: 'number' },
    integer: { type: 'integer' },
    boolean: { type: 'boolean' },
    image: { $ref: `${core}/image-link` },
    video: { $ref: `${core}/video-link` },
  };
  return {
    id: `${origin}${LOCALIZATION_PATH}`,
    $schema: DRAFT_04,
    title: 'Localization definitions',
    definitions: Object.fromEntries(LOCALIZED_KINDS.map((k) => [`localized-${k}`, localized(value[k])])),
  };
}

/** The dialect: draft-04 plus the service's annotations (allowed, never enforced here). */
export function dialectDocument(origin: string) {
  return {
    id: `${origin}${DIALECT_PATH}#`,
    $schema: DRAFT_04,
    title: 'Content type schema dialect',
    allOf: [{ $ref: DRAFT_04 }],
    properties: {
      id: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      description: { type: 'string' },
      'trait:localizable': { type: 'boolean' },
      'trait:hierarchy': { type: 'object' },
      'trait:sortable': { type: 'object' },
      'trait:filterable': { type: 'object' },
    },
  };
}
