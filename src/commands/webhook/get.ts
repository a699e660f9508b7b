import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';

/** What stands for a signing secret that is set but not asked for. */
export const HIDDEN_SECRET = '(set; --show-secret shows it)';

export default defineCommand<{ hub?: string; showSecret?: boolean }>({
  summary: 'Show a webhook (its signing secret only with --show-secret; secret header values never)',
  description: 'The signing secret verifies deliveries: it is hidden unless --show-secret, so a shared terminal, a CI log or a pasted output does not leak it. Secret header values never come back from the service.',
  examples: ['cms webhook get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms webhook get 5f1a2b3c4d5e6f7a8b9c0d1e --show-secret -o json'],
  args: [{ name: 'webhook', description: 'webhook id', required: true }],
  options: [hubOption, { flags: '--show-secret', description: 'show the signing secret' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hook = await client.get<{ secret?: string | null }>(`/hubs/${await ctx.hubId(opts.hub, client)}/webhooks/${args.webhook}`);
    return item(opts.showSecret || !hook.secret ? hook : { ...hook, secret: HIDDEN_SECRET });
  },
});
