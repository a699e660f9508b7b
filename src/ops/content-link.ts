import type { ApiClient } from '../core/client.js';

// Content links as the hosted service's own clients write them: the core definitions live on
// the service's schema host (the sandbox accepts any host and matches on the path, but docs,
// demo, fixtures and links the CLI builds all use this one).

export const SCHEMA_HOST = 'http://bigcontent.io';
export const CORE_DEFINITIONS = `${SCHEMA_HOST}/cms/schema/v1/core#/definitions`;
export const SCHEMA_DIALECT = `${SCHEMA_HOST}/cms/schema/v1/schema#`;

export interface ContentLinkValue {
  _meta: { schema: string };
  contentType: string;
  id: string;
}

/** The link object for an item of the given content type (its body._meta.schema). */
export function contentLink(id: string, contentType: string): ContentLinkValue {
  return { _meta: { schema: `${CORE_DEFINITIONS}/content-link` }, contentType, id };
}

/** A link to an existing item: its content type is read from the item itself. */
export async function linkToItem(client: ApiClient, id: string): Promise<ContentLinkValue> {
  const target = await client.get<{ body?: { _meta?: { schema?: string } } }>(`/content-items/${encodeURIComponent(id)}`);
  return contentLink(id, target.body?._meta?.schema ?? '');
}
