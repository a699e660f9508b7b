import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Delete a search index with its replicas, records, assigned types and their webhooks',
  examples: ['cms index delete products --yes'],
  args: [indexArg],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    await confirm(ctx, `Delete search index ${args.index} and everything in it?`, opts.yes);
    await client.delete(path);
    return done(`Deleted search index ${args.index}`);
  },
});
