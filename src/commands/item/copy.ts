import { defineCommand } from '../../cli/define.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS, fetchItem, itemArg } from './_shared.js';

interface Options {
  hub?: string;
  repo?: string;
  label?: string;
  version?: string;
  name?: string;
  folder?: string;
  locale?: string;
}

export default defineCommand<Options>({
  summary: 'Copy a content item (one version of it) into a repository as a new item',
  description: 'The copy starts at version 1 without the delivery key. The destination repository must have the content type assigned.',
  examples: ['cms item copy 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --repo archive', 'cms item copy 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --repo content --version 2 --label "Home (copy)"'],
  args: [itemArg],
  options: [
    hubOption,
    { ...repoOption, description: 'destination repository (id or name); required' },
    { flags: '--label <label>', description: 'label of the copy (default: the source label)' },
    { flags: '--version <n|latest>', description: 'version to copy (default: latest)' },
    { flags: '--name <name>', description: 'body._meta.name of the copy' },
    { flags: '--folder <id>', description: 'folder of the destination repository' },
    { flags: '--locale <locale>', description: 'locale of the copy (default: the source locale, if the destination accepts it)' },
  ],
  async run(ctx, args, opts) {
    if (!opts.repo) throw new UsageError('--repo is required', 'Name the destination repository: cms item copy <id> --repo <id|name>.');
    const version = opts.version === undefined || opts.version === 'latest' ? 'latest' : Number(opts.version);
    if (version !== 'latest' && (!Number.isInteger(version) || version < 1)) throw new UsageError(`--version must be a version number or latest, got '${opts.version}'`);
    const client = await ctx.client();
    const dest = await repoId(ctx, opts.repo, opts.hub, client);
    const label = opts.label ?? (await fetchItem(client, args.item)).label;
    const request = { label, version, name: opts.name, folderId: opts.folder, locale: opts.locale };
    return item(await client.post(`/content-repositories/${dest}/content-items`, request, { query: { sourceContentItemId: args.item } }), ITEM_COLUMNS);
  },
});
