import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { item } from '../../output/result.js';
import { STATE_COLUMNS, stateId } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Show a workflow state',
  examples: ['cms workflow get "In review"', 'cms workflow get 5f1a2b3c4d5e6f7a8b9c0d1e -o json'],
  args: [{ name: 'state', description: 'workflow state id or label', required: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    return item(await client.get(`/workflow-states/${await stateId(ctx, client, args.state, opts.hub)}`), STATE_COLUMNS);
  },
});
