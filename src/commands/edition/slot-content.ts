import { defineCommand } from '../../cli/define.js';
import { readJsonObject } from '../../cli/input.js';
import { bodyFileOption } from '../../cli/options.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { contentLink } from '../../ops/content-link.js';
import { item } from '../../output/result.js';
import { EDITION_SLOT_COLUMNS, editionArg, type EditionSlot } from './_edition-slots.js';

interface Options {
  snapshot?: string[];
  property: string;
  bodyFile?: string;
}

/**
 * A content link to a snapshot, typed with the content type of the snapshot's root item, which it
 * names in `_meta.rootContentItemId` as the vendor's app writes slot links (the vendor's CLI reads
 * it to snapshot the item again when it copies events to another hub).
 */
async function snapshotLink(client: ApiClient, id: string) {
  const snapshot = await client.get<{ rootContentItem: { id: string; contentTypeUri: string } }>(`/snapshots/${id}`);
  const link = contentLink(id, snapshot.rootContentItem.contentTypeUri);
  return { ...link, _meta: { ...link._meta, rootContentItemId: snapshot.rootContentItem.id } };
}

/** The slot content to send: the file's (wrapped in {body} when it is the bare body), or the current content with the property set to the snapshot link(s). */
async function contentFor(client: ApiClient, slot: EditionSlot, opts: Options): Promise<Record<string, unknown>> {
  if (opts.bodyFile) {
    const file = await readJsonObject(opts.bodyFile);
    return 'body' in file ? file : { body: file };
  }
  await checkProperty(client, slot, opts.property);
  const links = await Promise.all(opts.snapshot!.map((id) => snapshotLink(client, id)));
  return { body: { ...slot.content.body, [opts.property]: links.length === 1 ? links[0] : links } };
}

/**
 * Refuses a --property the slot's schema does not have (the service stores any field, and a link
 * in a field the slot type does not know would leave the slot VALID but its content unseen).
 */
async function checkProperty(client: ApiClient, slot: EditionSlot, property: string): Promise<void> {
  const slotItem = await client.get<{ body?: { _meta?: { schema?: string } } }>(`/content-items/${slot.slotId}`);
  const schemaId = slotItem.body?._meta?.schema;
  const edition = await client.get<{ eventId: string }>(`/editions/${slot.editionId}`);
  const event = await client.get<{ _links?: { hub?: { href: string } } }>(`/events/${edition.eventId}`);
  const hubId = event._links?.hub?.href.split('/').pop();
  if (!schemaId || !hubId) return;
  const resolved = await client.post<{ body: string }>(`/hubs/${hubId}/content-type-schemas/resolve`, { schemaId });
  const names = propertyNames(JSON.parse(resolved.body));
  // A schema whose properties cannot be read here (all behind references) is not second-guessed.
  if (!names.length || names.includes(property)) return;
  throw new UsageError(`The slot's schema ${schemaId} has no property '${property}'`, `Its properties: ${names.join(', ')}. Choose the one that holds the link with --property <name>.`);
}

/** The properties a schema declares, at the top and in its inline allOf parts (core definitions aside). */
function propertyNames(schema: { properties?: Record<string, unknown>; allOf?: unknown[] }): string[] {
  const parts = [schema, ...(schema.allOf ?? [])] as { properties?: Record<string, unknown> }[];
  return [...new Set(parts.flatMap((p) => Object.keys(p?.properties ?? {})))].filter((n) => n !== '_meta');
}

export default defineCommand<Options>({
  summary: 'Put content into an edition slot: links to snapshots',
  description:
    'With --snapshot, the slot content keeps what it holds and its --property (default slot) becomes a content link to the snapshot (several --snapshot make a list). --body-file sends the whole slot content ({body: {...}}). The update is safe: it fails (409) if someone changed the slot since it was read.',
  examples: [
    'cms edition slot-content 5f1a2b3c4d5e6f7a8b9c0d1e 6a7b8c9d0e1f2a3b4c5d6e7f --property hero --snapshot 7e8f9a0b1c2d3e4f5a6b7c8d',
    'cms edition slot-content 5f1a2b3c4d5e6f7a8b9c0d1e 6a7b8c9d0e1f2a3b4c5d6e7f --body-file slot.json',
  ],
  args: [editionArg, { name: 'edition-slot', description: 'edition slot id', required: true }],
  options: [
    { flags: '--snapshot <id>', description: 'snapshot to link (repeatable)', repeatable: true },
    { flags: '--property <name>', description: 'slot schema property that holds the link(s)', default: 'slot' },
    bodyFileOption,
  ],
  async run(ctx, args, opts) {
    const sources = [opts.snapshot?.length, opts.bodyFile].filter(Boolean).length;
    if (sources !== 1) throw new UsageError('Give --snapshot <id> (repeatable) or --body-file, one of them');
    const client = await ctx.client();
    const path = `/editions/${args.edition}/slots/${args['edition-slot']}`;
    const slot = await client.get<EditionSlot>(path);
    const content = await contentFor(client, slot, opts);
    return item(await client.put(`${path}/content`, content, { query: { lastModifiedDate: slot.lastModifiedDate } }), EDITION_SLOT_COLUMNS);
  },
});
