import { defineCommand } from '../../cli/define.js';
import { parseValue } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';

interface Opts {
  hub?: string;
  item?: string;
  edition?: string;
  snapshot?: string;
  webhook?: string;
  set?: string[];
}

export default defineCommand<Opts>({
  summary: 'Send a synthetic webhook event (signed and retried like a real one; no content changes)',
  description:
    'Delivers <event> to the hub\'s webhooks that subscribe to it (or only to --webhook, whatever it subscribes to) through the normal signing, headers and retries. The payload is built from the item, edition or snapshot named, then --set overrides payload fields. The delivery is marked: the event body says "synthetic": true and the request carries X-Webhook-Synthetic: true.',
  examples: [
    'cms sandbox trigger content-item.published --hub site --item 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c',
    'cms sandbox trigger content-item.updated --hub site --item 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --set payload.label=Renamed --set payload.body.count=3',
  ],
  args: [{ name: 'event', description: 'content-item.created|updated|assigned|workflow.updated|published, edition.scheduled|unscheduled|published, snapshot.published', required: true }],
  options: [
    hubOption,
    { flags: '--item <id>', description: 'the content item a content-item.* event is about' },
    { flags: '--edition <id>', description: 'the edition an edition.* event is about' },
    { flags: '--snapshot <id>', description: 'the snapshot a snapshot.published event is about' },
    { flags: '--webhook <id>', description: 'deliver to this webhook only (whatever events it subscribes to)' },
    { flags: '--set <payload.path=value>', description: 'override a payload field (repeatable; JSON values allowed)', repeatable: true },
  ],
  async run(ctx, args, opts) {
    const set: Record<string, unknown> = {};
    for (const assignment of opts.set ?? []) {
      const eq = assignment.indexOf('=');
      if (eq <= 0) throw new UsageError(`--set needs payload.path=value, got '${assignment}'`);
      set[assignment.slice(0, eq)] = parseValue(assignment.slice(eq + 1));
    }
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const body = { event: args.event as string, itemId: opts.item, editionId: opts.edition, snapshotId: opts.snapshot, webhookId: opts.webhook, ...(opts.set?.length ? { set } : {}) };
    const res = await client.post<{ deliveries: number }>(`/__sandbox/hubs/${encodeURIComponent(hubId)}/webhook-events`, body);
    if (res.deliveries === 0) ctx.io.warn(`no active webhook of the hub subscribes to ${args.event as string}: nothing was sent`);
    return item(res);
  },
});
