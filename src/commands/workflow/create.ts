import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { STATE_COLUMNS, rgbColor } from './_shared.js';

export default defineCommand<{ hub?: string; label?: string; color?: string }>({
  summary: 'Create a workflow state',
  examples: ['cms workflow create --label "In review" --color "rgb(255,165,0)"', 'cms workflow create --label Approved --color "#00aa00"'],
  options: [
    hubOption,
    { flags: '--label <label>', description: 'label of the state' },
    { flags: '--color <color>', description: 'rgb(r,g,b) or #rrggbb' },
  ],
  async run(ctx, _args, opts) {
    if (!opts.label || !opts.color) throw new UsageError('Give --label and --color');
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    return item(await client.post(`/hubs/${hubId}/workflow-states`, { label: opts.label, color: rgbColor(opts.color) }), STATE_COLUMNS);
  },
});
