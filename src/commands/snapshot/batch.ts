import { defineCommand } from '../../cli/define.js';
import { readJsonFile } from '../../cli/input.js';
import { bodyFileOption, hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { SNAPSHOT_COLUMNS, TYPES } from './_columns.js';

interface Options {
  hub?: string;
  root?: string[];
  comment: string;
  type: string;
  bodyFile?: string;
}

export default defineCommand<Options>({
  summary: 'Snapshot several content items in one request',
  description: 'Each --root makes one snapshot (of that item and everything it links to). --body-file sends a JSON array of snapshot requests {contentRoot, comment, createdFrom, type} as it is.',
  examples: ['cms snapshot batch --root 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --root 7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'cms snapshot batch --body-file snapshots.json -o json'],
  options: [
    hubOption,
    { flags: '--root <item>', description: 'content item to snapshot (repeatable)', repeatable: true },
    { flags: '--comment <text>', description: 'comment of every snapshot', default: '' },
    { flags: '--type <type>', description: 'type of every snapshot', choices: TYPES, default: 'generated' },
    bodyFileOption,
  ],
  async run(ctx, _args, opts) {
    const request = opts.bodyFile ? await readJsonFile(opts.bodyFile) : (opts.root ?? []).map((contentRoot) => ({ contentRoot, comment: opts.comment, createdFrom: 'content-item', type: opts.type.toUpperCase() }));
    if (!Array.isArray(request) || !request.length) throw new UsageError('Name at least one item with --root <item>, or give --body-file with a JSON array');
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const answer = await client.post<{ snapshots: unknown[] }>(`/hubs/${hubId}/snapshots/batch`, request);
    return list(answer.snapshots, SNAPSHOT_COLUMNS);
  },
});
