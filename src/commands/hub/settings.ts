import { defineCommand } from '../../cli/define.js';
import { buildBody, commaList } from '../../cli/input.js';
import { bodyFileOption, setOption, setStringOption } from '../../cli/options.js';
import { item } from '../../output/result.js';

interface Opts {
  virtualStaging?: string;
  previewVirtualStaging?: string;
  locales?: string;
  bodyFile?: string;
  set?: string[];
}

export default defineCommand<Opts>({
  summary: 'Show or change the settings of a hub',
  description:
    'Without changes, shows the settings. Each settings object given (devices, localization, applications, virtual staging, publishing, assetManagement) replaces the stored one whole.',
  examples: [
    'cms hub settings demo',
    'cms hub settings demo --locales en-GB,fr-FR --virtual-staging vse.example.com',
    'cms hub settings demo --body-file settings.json',
  ],
  args: [{ name: 'hub', description: 'hub id or name (default: the current hub)' }],
  options: [
    { flags: '--virtual-staging <hostname>', description: 'virtual staging environment hostname' },
    { flags: '--preview-virtual-staging <hostname>', description: 'preview virtual staging environment hostname' },
    { flags: '--locales <list>', description: 'comma-separated locales of the hub (e.g. en-GB,fr-FR)' },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(args.hub, client);
    const body = await buildBody(opts, {
      virtualStagingEnvironment: opts.virtualStaging === undefined ? undefined : { hostname: opts.virtualStaging },
      previewVirtualStagingEnvironment: opts.previewVirtualStaging === undefined ? undefined : { hostname: opts.previewVirtualStaging },
      localization: opts.locales === undefined ? undefined : { locales: commaList(opts.locales) },
    });
    if (Object.keys(body).length) await client.patch(`/hubs/${hubId}/settings`, body);
    const hub = await client.get<{ settings: unknown }>(`/hubs/${hubId}`);
    return item(hub.settings);
  },
});
