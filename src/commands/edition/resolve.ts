import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { CONFLICT_COLUMNS, editionArg } from './_edition-slots.js';

export default defineCommand<{ item?: string; version?: number; comment?: string }>({
  summary: 'Resolve a conflict of an edition: the version of a content item it publishes',
  description: 'The version must be one of the conflicting versions. The edition must not have changed since this command read it.',
  examples: ['cms edition resolve 5f1a2b3c4d5e6f7a8b9c0d1e --item 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --version 2'],
  args: [editionArg],
  options: [
    { flags: '--item <id>', description: 'content item in conflict', required: true },
    { flags: '--version <n>', description: 'version to publish', required: true, integer: true },
    { flags: '--comment <text>', description: 'why this version' },
  ],
  async run(ctx, args, opts) {
    if (!opts.item || opts.version === undefined) throw new UsageError('--item and --version are required', 'List the conflicts with `cms edition conflicts <edition>`.');
    const client = await ctx.client();
    const { lastModifiedDate } = await client.get<{ lastModifiedDate: string }>(`/editions/${args.edition}`);
    const request = { comment: opts.comment, lastModifiedDate, resolutions: [{ id: opts.item, version: opts.version }] };
    const answer = await client.post<{ _embedded: { conflicts: unknown[] } }>(`/editions/${args.edition}/conflicts/resolve`, request);
    return list(answer._embedded.conflicts, CONFLICT_COLUMNS);
  },
});
