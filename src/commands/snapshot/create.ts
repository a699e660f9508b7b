import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { CREATE_TYPES, SNAPSHOT_COLUMNS } from './_columns.js';

export default defineCommand<{ hub?: string; root?: string; comment?: string; type: string }>({
  summary: 'Snapshot a content item and everything it links to, at their current versions',
  examples: ['cms snapshot create --root 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --comment "Spring launch"', 'cms snapshot create --root 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --comment Nightly --type system'],
  options: [
    hubOption,
    { flags: '--root <item>', description: 'content item at the root of the snapshot', required: true },
    { flags: '--comment <text>', description: 'what the snapshot is for', required: true },
    { flags: '--type <type>', description: 'snapshot type (generated ones come from cms snapshot batch)', choices: CREATE_TYPES, default: 'user' },
  ],
  async run(ctx, _args, opts) {
    if (!opts.root || !opts.comment) throw new UsageError('--root and --comment are required', 'cms snapshot create --root <item id> --comment <text>');
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const request = { contentRoot: opts.root, comment: opts.comment, createdFrom: 'content-item', type: opts.type.toUpperCase() };
    return item(await client.post(`/hubs/${hubId}/snapshots`, request), SNAPSHOT_COLUMNS);
  },
});
