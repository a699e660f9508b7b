import { isContentLink } from '../core/content-links.js';
import type { StagedContent } from './resolve.js';
import { IMAGE_IRI_BASE, IRI_BASE, VIDEO_IRI_BASE } from './iri.js';

// The staging query's answer (Content Delivery 1) as the vendor's delivery SDK reads it:
// `{"@graph": [...nodes], "result": [{"@id"}]}`. Each item is a node named by its IRI with its
// schema as `@type`; a content link to an item of the graph is written `{"@id", "@type"}` (the SDK
// inlines the node); content references stay `{_meta, contentType, id}`; an image or video link
// becomes `{"@id": "http://image.cms.amplience.com/<id>"}` with its fields in a node of its own.

const MEDIA = /\/cms\/schema\/v1\/core#\/definitions\/(image-link|video-link)$/;

type Json = Record<string, unknown>;

function mediaKind(value: Json): 'image' | 'video' | null {
  const schema = (value._meta as { schema?: unknown } | undefined)?.schema;
  if (typeof schema !== 'string' || typeof value.id !== 'string') return null;
  const m = MEDIA.exec(schema);
  return m ? (m[1] === 'image-link' ? 'image' : 'video') : null;
}

/** A body with links in graph form; media nodes are added to `media` by IRI. */
function linked(value: unknown, inGraph: ReadonlyMap<string, unknown>, media: Map<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((v) => linked(v, inGraph, media));
  if (!value || typeof value !== 'object') return value;
  const obj = value as Json;
  if (isContentLink(obj)) {
    const kind = /content-link$/.test(obj._meta.schema);
    if (kind && inGraph.has(obj.id)) return { '@id': IRI_BASE + obj.id, '@type': obj.contentType ?? inGraph.get(obj.id) };
    return obj;
  }
  const kind = mediaKind(obj);
  if (kind) {
    const iri = (kind === 'image' ? IMAGE_IRI_BASE : VIDEO_IRI_BASE) + (obj.id as string);
    if (!media.has(iri)) media.set(iri, { ...obj, '@id': iri, mediaType: kind });
    return { '@id': iri };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) out[k] = linked(v, inGraph, media);
  return out;
}

/** The query answer for staged content (null: nothing matched). */
export function queryResult(staged: StagedContent | null) {
  if (!staged) return { '@graph': [], result: [] };
  const entries = [staged.root, ...staged.linked.values()];
  const inGraph = new Map(entries.map((d) => [d.id, d.json._meta.schema]));
  const media = new Map<string, Json>();
  const nodes = entries.map((d) => ({ ...(linked(d.json, inGraph, media) as Json), '@type': d.json._meta.schema, '@id': IRI_BASE + d.id }));
  return { '@graph': [...nodes, ...media.values()], result: [{ '@id': IRI_BASE + staged.root.id }] };
}
