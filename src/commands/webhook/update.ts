import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { WEBHOOK_OPTIONS, webhookBody, type WebhookFlags } from './_body.js';

export default defineCommand<WebhookFlags & { hub?: string }>({
  summary: 'Change a webhook (only the fields given)',
  examples: ['cms webhook update 5f1a2b3c4d5e6f7a8b9c0d1e --no-active', 'cms webhook update 5f1a2b3c4d5e6f7a8b9c0d1e --event content-item.created,content-item.updated'],
  args: [{ name: 'webhook', description: 'webhook id', required: true }],
  options: [hubOption, ...WEBHOOK_OPTIONS],
  async run(ctx, args, opts) {
    const body = await webhookBody(opts);
    if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give at least one flag, --set or --body-file.');
    const client = await ctx.client();
    return item(await client.patch(`/hubs/${await ctx.hubId(opts.hub, client)}/webhooks/${args.webhook}`, body));
  },
});
