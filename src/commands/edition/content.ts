import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption } from '../../cli/options.js';
import { col, item, list } from '../../output/result.js';
import { editionArg } from './_edition-slots.js';

type EditionContent = { content: { body: { contents: { id: string }[] } } };

const CONTENT_COLUMNS = [col('id'), col('snapshots', (r: EditionContent) => r.content.body.contents.map((c) => c.id).join(', ')), col('created', 'createdDate')];

export default defineCommand<{ addSnapshot?: string[]; limit: number }>({
  summary: 'List the content snapshots of an edition, or add snapshots to it',
  description: 'Edition content associates snapshots with an edition directly, outside any slot. --add-snapshot adds one record holding the given snapshots.',
  examples: ['cms edition content 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms edition content 5f1a2b3c4d5e6f7a8b9c0d1e --add-snapshot 7e8f9a0b1c2d3e4f5a6b7c8d --add-snapshot 8f9a0b1c2d3e4f5a6b7c8d9e'],
  args: [editionArg],
  options: [{ flags: '--add-snapshot <id>', description: 'snapshot to add (repeatable)', repeatable: true }, limitOption, allOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const path = `/editions/${args.edition}/contents`;
    if (opts.addSnapshot?.length) return item(await client.post(path, opts.addSnapshot.map((snapshot) => ({ snapshot }))), CONTENT_COLUMNS);
    return list(client.paginate(path, 'edition-content', { limit: limitOf(opts) }), CONTENT_COLUMNS, limitOf(opts));
  },
});
