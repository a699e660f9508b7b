import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { hubOption, yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; yes?: boolean }>({
  summary: 'Remove every record of a search index (its replicas too)',
  examples: ['cms index clear products --yes'],
  args: [indexArg],
  options: [hubOption, yesOption],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    await confirm(ctx, `Remove every record of search index ${args.index}?`, opts.yes);
    return done(`Cleared search index ${args.index}`, await client.post(`${path}/clear`, {}));
  },
});
