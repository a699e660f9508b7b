// The service's JSON Schema dialect and core definitions. Clients write them with the hosted
// service's schema host; the sandbox matches on the path, serves both documents itself at
// {origin}/cms/schema/v1/schema and {origin}/cms/schema/v1/core, and validates offline.

export const DIALECT_PATH = '/cms/schema/v1/schema';
export const CORE_PATH = '/cms/schema/v1/core';
export const DIALECT_PATTERN = /^https?:\/\/[^/]+\/cms\/schema\/v1\/schema#?$/;
export const CORE_REF_PATTERN = /^https?:\/\/[^/]+\/cms\/schema\/v1\/core(#.*)?$/;

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
