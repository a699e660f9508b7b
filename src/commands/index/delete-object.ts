import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Remove one record from a search index (and its replicas)',
  examples: ['cms index delete-object products 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --yes'],
  args: [indexArg, { name: 'object', description: 'objectID of the record (a content item id)', required: true }],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    await confirm(ctx, `Remove record ${args.object} from search index ${args.index}?`, opts.yes);
    await client.delete(`${path}/objects/${encodeURIComponent(args.object)}`);
    return done(`Removed record ${args.object}`);
  },
});
