import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, setOption, setStringOption } from '../../cli/options.js';
import { item } from '../../output/result.js';

export default defineCommand<{ name?: string; label?: string; description?: string; bodyFile?: string; set?: string[] }>({
  summary: 'Create a hub',
  examples: ['cms hub create --name demo --label "Demo hub"', 'cms hub create --body-file hub.json'],
  options: [
    { flags: '--name <name>', description: 'unique name (letters, digits, - and _)', required: true, inBody: true },
    { flags: '--label <label>', description: 'display label', required: true, inBody: true },
    { flags: '--description <text>', description: 'description' },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, _args, opts) {
    const body = await buildBody(opts, { name: opts.name, label: opts.label, description: opts.description }, ['name', 'label']);
    const client = await ctx.client();
    return item(await client.post('/hubs', body));
  },
});
