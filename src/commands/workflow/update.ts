import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { STATE_COLUMNS, rgbColor, stateId } from './_shared.js';

export default defineCommand<{ hub?: string; label?: string; color?: string }>({
  summary: 'Change the label and/or colour of a workflow state',
  examples: ['cms workflow update "In review" --color "#ff0000"', 'cms workflow update 5f1a2b3c4d5e6f7a8b9c0d1e --label Reviewing'],
  args: [{ name: 'state', description: 'workflow state id or label', required: true }],
  options: [
    hubOption,
    { flags: '--label <label>', description: 'new label' },
    { flags: '--color <color>', description: 'new colour: rgb(r,g,b) or #rrggbb' },
  ],
  async run(ctx, args, opts) {
    if (opts.label === undefined && opts.color === undefined) throw new UsageError('Nothing to change', 'Give --label and/or --color.');
    const client = await ctx.client();
    const id = await stateId(ctx, client, args.state, opts.hub);
    return item(await client.patch(`/workflow-states/${id}`, { label: opts.label, color: rgbColor(opts.color) }), STATE_COLUMNS);
  },
});
