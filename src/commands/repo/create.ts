import { defineCommand } from '../../cli/define.js';
import { buildBody, commaList } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { item } from '../../output/result.js';

export default defineCommand<{ hub?: string; name?: string; label?: string; feature?: string[]; bodyFile?: string; set?: string[] }>({
  summary: 'Create a content repository in a hub',
  examples: ['cms repo create --name content --label Content', 'cms repo create --name slots --label Slots --feature slots'],
  options: [
    hubOption,
    { flags: '--name <name>', description: 'name, unique in the hub', required: true, inBody: true },
    { flags: '--label <label>', description: 'display label', required: true, inBody: true },
    { flags: '--feature <name>', description: 'add a feature flag such as slots (repeatable)', repeatable: true },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, _args, opts) {
    // The body first: a missing field is a usage error before any request.
    const body = await buildBody(opts, { name: opts.name, label: opts.label }, ['name', 'label']);
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    let repo = await client.post<{ id: string }>(`/hubs/${hubId}/content-repositories`, body);
    const features = commaList(opts.feature);
    for (const feature of features) await client.post(`/content-repositories/${repo.id}/features`, undefined, { query: { feature } });
    if (features.length) repo = await client.get(`/content-repositories/${repo.id}`);
    return item(repo);
  },
});
