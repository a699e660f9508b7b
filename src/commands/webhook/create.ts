import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { WEBHOOK_OPTIONS, webhookBody, type WebhookFlags } from './_body.js';

export default defineCommand<WebhookFlags & { hub?: string }>({
  summary: 'Create a webhook',
  description: 'Deliveries are JSON {id, name, hubId, createdDate, payload}, retried with backoff after a 5xx or a network error; every attempt is logged (cms webhook requests).',
  examples: [
    'cms webhook create --label "Publish hook" --event content-item.published --handler https://example.com/hook --secret s3cret',
    'cms webhook create --label CI --event edition.scheduled,edition.published --handler http://127.0.0.1:9000/ --secret-header Authorization="Bearer abc"',
  ],
  options: [hubOption, ...WEBHOOK_OPTIONS],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return item(await client.post(`/hubs/${hubId}/webhooks`, await webhookBody(opts)));
  },
});
