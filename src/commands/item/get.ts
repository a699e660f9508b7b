import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS, fetchItem, labelOne } from './_shared.js';
import { itemHubId } from '../../ops/item-hub.js';
import { deliveryBase } from '../../config/resolve.js';

export default defineCommand<{ hub?: string; version?: number; key?: string; delivered?: boolean; depth: string; format: string; locale?: string }>({
  summary: 'Show a content item (or one of its versions, or the item holding a delivery key), or what a site reads of it (--delivered)',
  description:
    'Without --delivered: the item as the management API holds it (the latest version, drafts included). ' +
    'With --delivered: what a site reads, the PUBLISHED version through Content Delivery 2 (GET <delivery URL>/content/id/<id> or /content/key/<key>, never with a token), ' +
    'the delivery URL being CMS_DELIVERY_URL (or the profile\'s, {hubName} for the hub name), else https://<hub name>.cdn.content.amplience.net for the hosted service, else {API origin}/cdn/<hub name> (a sandbox). ' +
    'with its linked items (--depth all) inlined or listed apart (--format linked). An item never published, unpublished or archived is not found (exit 1). ' +
    'With --locale (a list such as en-US,en-*,*: the first locale of the list that has a value wins), every localized field is shown as the single value a site in that locale reads (null when no locale of the list has one).',
  examples: [
    'cms item get 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c',
    'cms item get 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --version 2 -o json',
    'cms item get --key news/launch',
    'cms item get 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --delivered',
    'cms item get --key news/launch --delivered --depth root --format linked',
    "cms item get --key news/launch --delivered --locale 'en-US,en-*'",
  ],
  args: [{ name: 'item', description: 'content item id (not needed with --key)' }],
  options: [
    { flags: '--version <n>', description: 'an earlier version', integer: true },
    { flags: '--key <deliveryKey>', description: 'find the item of the hub holding this delivery key' },
    { flags: '--delivered', description: 'the published version, as Content Delivery 2 answers a site' },
    { flags: '--depth <depth>', description: 'with --delivered: root (the item alone) or all (with its linked items)', choices: ['root', 'all'], default: 'all' },
    { flags: '--format <format>', description: 'with --delivered: inlined (links replaced by items) or linked (linkedContent apart)', choices: ['inlined', 'linked'], default: 'inlined' },
    { flags: '--locale <list>', description: 'with --delivered: localized fields as a site in this locale reads them (en-GB, or a list with wildcards: en-US,en-*,*)' },
    hubOption,
  ],
  async run(ctx, args, opts) {
    if (opts.locale !== undefined && !opts.delivered) throw new UsageError('--locale shapes what a site reads: add --delivered (the management API answers every locale)');
    const client = await ctx.client();
    if (opts.delivered) {
      if (opts.version !== undefined) throw new UsageError('--delivered reads the published version; leave out --version');
      if (!opts.key && !args.item) throw new UsageError('Name the item: cms item get <id> --delivered, or --key <deliveryKey> --delivered.');
      const hubId = opts.hub || opts.key ? await ctx.hubId(opts.hub, client) : await itemHubId(client, args.item!);
      const hub = await client.get<{ name: string }>(`/hubs/${hubId}`);
      const path = opts.key ? `key/${opts.key.split('/').map(encodeURIComponent).join('/')}` : `id/${encodeURIComponent(args.item!)}`;
      // Public: never with the access token, wherever the delivery URL points.
      const delivered = await client.get<unknown>(`${deliveryBase(ctx.connection(), hub.name)}/content/${path}`, { query: { depth: opts.depth, format: opts.format, ...(opts.locale !== undefined ? { locale: opts.locale } : {}) }, anonymous: true });
      return { kind: 'item', data: delivered, raw: true };
    }
    if (opts.key) {
      const hubId = await ctx.hubId(opts.hub, client);
      return item(await labelOne(ctx, client, await client.get(`/hubs/${hubId}/content-items/delivery-key`, { query: { key: opts.key } })), ITEM_COLUMNS);
    }
    if (!args.item) throw new UsageError('Name the item: cms item get <id>, or find it with --key <deliveryKey>.');
    return item(await labelOne(ctx, client, await fetchItem(client, args.item, opts.version)), ITEM_COLUMNS);
  },
});
