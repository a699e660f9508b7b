import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { INDEX_COLUMNS, indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; label?: string }>({
  summary: 'Change the label of a search index',
  examples: ['cms index update products --label "All products"'],
  args: [indexArg],
  options: [hubOption, { flags: '--label <label>', description: 'new label (3 to 63 characters)' }],
  async run(ctx, args, opts) {
    if (!opts.label) throw new UsageError('Nothing to change', 'Give the new label with --label.');
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    return item(await client.patch(path, { label: opts.label }), INDEX_COLUMNS);
  },
});
