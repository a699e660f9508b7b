import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { itemArg, withCurrentVersion } from './_shared.js';

export default defineCommand<{ to?: number }>({
  summary: 'Restore an earlier version of a content item (as a new version)',
  description: 'The new version takes the body, label, folder and locale of the restored one; the delivery key stays as it is.',
  examples: ['cms item restore 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to 2'],
  args: [itemArg],
  options: [{ flags: '--to <version>', description: 'the version to restore (required)', integer: true }],
  run(ctx, args, opts) {
    const restoreVersion = opts.to;
    if (restoreVersion === undefined) throw new UsageError('--to is required', 'Name the version to restore; list them with `cms item versions <id>`.');
    return withCurrentVersion(ctx, args.item, (client, version) => client.post(`/content-items/${args.item}/restore`, { version, restoreVersion }));
  },
});
