import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { changeTypeStatus } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Archive a content type: no new items of it, no settings changes',
  examples: ['cms type archive Banner'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption],
  run: (ctx, args, opts) => changeTypeStatus(ctx, args.type, opts.hub, 'archive'),
});
