import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { setItemWorkflow, stateId } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: "Set a content item's workflow state",
  examples: ['cms workflow assign 3fa85f64-5717-4562-b3fc-2c963f66afa6 "In review"'],
  args: [
    { name: 'item', description: 'content item id', required: true },
    { name: 'state', description: 'workflow state id or label', required: true },
  ],
  options: [hubOption],
  async run(ctx, args, opts) {
    const state = await stateId(ctx, await ctx.client(), args.state, opts.hub);
    return setItemWorkflow(ctx, args.item, state);
  },
});
