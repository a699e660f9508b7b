import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { item } from '../../output/result.js';

export default defineCommand<{ hub?: string; clear?: boolean }>({
  summary: 'Show or set the item locales of a repository',
  description: 'With locales, sets them: items of the repository may then only take these locales. Without, shows them.',
  examples: ['cms repo locales content', 'cms repo locales content-fr fr-FR,fr-BE', 'cms repo locales content --clear'],
  args: [
    { name: 'repo', description: 'repository id or name', required: true },
    { name: 'locales', description: 'locales such as en-GB (comma list or several arguments)', variadic: true },
  ],
  options: [hubOption, { flags: '--clear', description: 'remove every item locale' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = await repoId(ctx, args.repo, opts.hub, client);
    const locales = commaList(args.locales as string[] | undefined);
    if (locales.length || opts.clear) await client.post(`/content-repositories/${id}/item-locales`, { itemLocales: opts.clear ? [] : locales });
    const repo = await client.get<{ id: string; name: string; itemLocales: string[] }>(`/content-repositories/${id}`);
    return item({ id: repo.id, name: repo.name, itemLocales: repo.itemLocales });
  },
});
