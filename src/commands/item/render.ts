import { defineCommand } from '../../cli/define.js';
import { html as page } from '../../output/result.js';
import { itemHubId } from '../../ops/item-hub.js';

export default defineCommand<{ template: string; hub?: string }>({
  summary: 'Print an item (or slot) rendered as HTML by virtual staging (the latest version, not the published one)',
  description:
    'Reads STAGING: the latest version of the item and of what it links to (use `cms item get --delivered` for what a site reads once published). ' +
    'GET /v1/content/<store>/content-item/<id>?template=<name> on the service origin (no token needed); the store is the hub (its name or id). ' +
    'Templates: default (the fields as a page), raw (the staging query JSON in a <pre>), or one the hub registered (PUT /__sandbox/hubs/<hubId>/templates/<name> with HTML holding {{content}} and {{label}}). ' +
    'A slot shows what is live on it now: the content of its latest started edition, else its own body. ' +
    "The sandbox also answers on a hub's settings.virtualStagingEnvironment.hostname (store `staging` there).",
  examples: ['cms item render 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c > page.html', 'cms item render 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --template raw'],
  args: [{ name: 'item', description: 'content item or slot id', required: true }],
  options: [
    { flags: '--template <name>', description: 'wrapper template', default: 'default' },
    { flags: '--hub <id|name>', description: "the item's hub (found from the item when left out)", complete: 'hubs' },
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const store = opts.hub ? await ctx.hubId(opts.hub, client) : await itemHubId(client, args.item);
    const html = await client.get<unknown>(`/v1/content/${encodeURIComponent(store)}/content-item/${encodeURIComponent(args.item)}`, { query: { template: opts.template }, headers: { accept: 'text/html' } });
    return page(typeof html === 'string' ? html : JSON.stringify(html));
  },
});
