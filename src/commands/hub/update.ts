import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, setOption, setStringOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';

export default defineCommand<{ name?: string; label?: string; description?: string; bodyFile?: string; set?: string[] }>({
  summary: 'Change the name, label or description of a hub',
  examples: ['cms hub update demo --label "Demo (staging)"'],
  args: [{ name: 'hub', description: 'hub id or name', required: true }],
  options: [
    { flags: '--name <name>', description: 'new name' },
    { flags: '--label <label>', description: 'new label' },
    { flags: '--description <text>', description: 'new description' },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, args, opts) {
    const body = await buildBody(opts, { name: opts.name, label: opts.label, description: opts.description });
    if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give --name, --label, --description, --set or --body-file.');
    const client = await ctx.client();
    return item(await client.patch(`/hubs/${await ctx.hubId(args.hub, client)}`, body));
  },
});
