import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { EXTENSION_COLUMNS, EXTENSION_OPTIONS, extensionArg, extensionBody, type ExtensionFlags } from './_shared.js';

export default defineCommand<ExtensionFlags>({
  summary: 'Change an extension (only the fields given)',
  examples: ['cms extension update 5f1a2b3c4d5e6f7a8b9c0d1e --label "Rich text editor" --height 400'],
  args: [extensionArg],
  options: EXTENSION_OPTIONS,
  async run(ctx, args, opts) {
    const body = await extensionBody(opts);
    if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give at least one flag, --set or --body-file.');
    const client = await ctx.client();
    return item(await client.patch(`/extensions/${encodeURIComponent(args.extension)}`, body), EXTENSION_COLUMNS);
  },
});
