import { defineCommand } from '../../cli/define.js';
import { watchItem, watchOptions, type WatchFlags } from '../../cli/watch.js';
import { item } from '../../output/result.js';
import { EDITION_COLUMNS } from '../event/_shared.js';

export default defineCommand<WatchFlags>({
  summary: 'Show an edition',
  description: 'With -w, prints the edition again each time it changes (scheduling, publishing), until it is PUBLISHED (exit 0), Ctrl-C (exit 130) or --timeout (exit 8).',
  examples: ['cms edition get 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms edition get 5f1a2b3c4d5e6f7a8b9c0d1e --query publishingStatus', 'cms edition get 5f1a2b3c4d5e6f7a8b9c0d1e -w --timeout 2s'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  options: watchOptions,
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const read = () => client.get<{ publishingStatus?: string }>(`/editions/${args.edition}`);
    if (opts.watch) return watchItem(ctx, opts, `Edition ${args.edition}`, read, EDITION_COLUMNS, (e) => e.publishingStatus === 'PUBLISHED');
    return item(await read(), EDITION_COLUMNS);
  },
});
