import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { changeSchemaStatus } from './_shared.js';

export default defineCommand<{ hub?: string }>({
  summary: 'Unarchive a content type schema',
  examples: ['cms schema unarchive https://schemas.example.com/banner.json'],
  args: [{ name: 'schema', description: 'schema id, or its schema id URL in the hub', required: true }],
  options: [hubOption],
  run: (ctx, args, opts) => changeSchemaStatus(ctx, args.schema, opts.hub, 'unarchive'),
});
