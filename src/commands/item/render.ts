import { defineCommand } from '../../cli/define.js';
import { text } from '../../output/result.js';

export default defineCommand<{ template: string }>({
  summary: 'Print an item (or slot) rendered as HTML by virtual staging',
  description:
    'GET /v1/content/store/content-item/<id>?template=<name> on the service origin (no token needed). Templates: default (the fields as a page), ' +
    'raw (the delivery JSON in a <pre>), or one the hub registered (PUT /__sandbox/hubs/<hubId>/templates/<name> with HTML holding {{content}} and {{label}}). ' +
    'A slot shows what is live on it now: the content of its latest started edition, else its own body. ' +
    "The sandbox also answers on a hub's settings.virtualStagingEnvironment.hostname: requests with that Host see only that hub.",
  examples: ['cms item render 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c > page.html', 'cms item render 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --template raw'],
  args: [{ name: 'item', description: 'content item or slot id', required: true }],
  options: [{ flags: '--template <name>', description: 'wrapper template', default: 'default' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const html = await client.get<unknown>(`/v1/content/store/content-item/${encodeURIComponent(args.item)}`, { query: { template: opts.template }, headers: { accept: 'text/html' } });
    return text(typeof html === 'string' ? html : JSON.stringify(html));
  },
});
