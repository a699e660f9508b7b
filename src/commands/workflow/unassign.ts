import { defineCommand } from '../../cli/define.js';
import { setItemWorkflow } from './_shared.js';

export default defineCommand({
  summary: "Remove a content item's workflow state",
  examples: ['cms workflow unassign 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  args: [{ name: 'item', description: 'content item id', required: true }],
  run: (ctx, args) => setItemWorkflow(ctx, args.item, null),
});
