import { defineCommand } from '../../cli/define.js';
import { itemArg, withCurrentVersion } from './_shared.js';

export default defineCommand<{ version: number }>({
  summary: 'Restore an earlier version of a content item (as a new version)',
  description: 'The new version takes the body, label, folder and locale of the restored one; the delivery key stays as it is. --version names a version as it does for `cms item get` (--to is its older name).',
  examples: ['cms item restore 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --version 2'],
  args: [itemArg],
  options: [
    { flags: '--version <n>', description: 'the version to restore', integer: true, required: true },
    { flags: '--to <version>', description: 'older name of --version', integer: true, aliasOf: 'version' },
  ],
  run(ctx, args, opts) {
    return withCurrentVersion(ctx, args.item, (client, version) => client.post(`/content-items/${args.item}/restore`, { version, restoreVersion: opts.version }));
  },
});
