import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { clientRecovering } from './_recover.js';
import { yesOption } from '../../cli/options.js';
import { done } from '../../output/result.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Delete everything in the sandbox (hubs, content, clients) and reset its clock',
  examples: ['cms sandbox reset --yes'],
  options: [yesOption],
  async run(ctx, _args, opts) {
    const client = await clientRecovering(ctx);
    await confirm(ctx, 'Delete every hub, item and restricted client in the sandbox?', opts.yes);
    await client.post('/__sandbox/reset');
    return done('The sandbox is empty again');
  },
});
