import { defineCommand } from '../../cli/define.js';
import { ApiError, NotFound } from '../../core/errors.js';
import type { ApiClient } from '../../core/client.js';
import { IRI_BASE } from '../../server/delivery/iri.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Print the staging graph of an item (or slot): it and its linked items at their latest versions, as the staging query answers',
  description:
    'Reads STAGING (the latest versions, drafts included; `cms item get --delivered` reads what a site gets once published). ' +
    'GET /cms/content/query?store=<hub>&query={"sys.iri":"http://content.cms.amplience.com/<id>"} on the service origin (no token needed), the Content Delivery 1 query of the vendor\'s delivery SDK. ' +
    'The answer is JSON-LD: "@graph" holds a node per item (its "@id" IRI, "@type" schema and body fields; a content link to another node is {"@id","@type"}; images are nodes of their own) and "result" names the root. ' +
    'A slot answers what is live on it now. An item of another store answers an empty graph.',
  examples: ['cms item graph 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c', 'cms item graph 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --hub demo'],
  args: [{ name: 'item', description: 'content item or slot id', required: true }],
  options: [{ flags: '--hub <id|name>', description: 'the store (hub) to query; any hub when left out', complete: 'hubs' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const store = opts.hub ? await ctx.hubId(opts.hub, client) : undefined;
    const graph = await client.get<{ '@graph'?: unknown[] }>('/cms/content/query', { query: { store, query: JSON.stringify({ 'sys.iri': IRI_BASE + args.item }) } });
    // The delivery query answers an empty graph for anything it does not hold; an id that names
    // no item at all is a mistake to report (exit 1), not an empty answer.
    if (!graph['@graph']?.length) await mustExist(client, args.item);
    return { kind: 'item', data: graph, raw: true };
  },
});

async function mustExist(client: ApiClient, id: string): Promise<void> {
  try {
    await client.get(`/content-items/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) throw new NotFound(`No content item or slot ${id}`, 'List items with `cms item list`, or find one with `cms item find <text>`.');
    throw err;
  }
}
