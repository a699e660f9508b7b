import { defineCommand } from '../../cli/define.js';
import { applySets, buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, repoOption, setOption, setStringOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS, applyLinks, linkOption } from './_shared.js';

interface Options {
  hub?: string;
  repo?: string;
  label?: string;
  schema?: string;
  folder?: string;
  locale?: string;
  bodyFile?: string;
  set?: string[];
  setString?: string[];
  link?: string[];
}

export default defineCommand<Options>({
  summary: 'Create a content item in a repository',
  description:
    'The request is {label, body, folderId?, locale?}: --body-file gives all or part of it, the flags set their fields, --set edits any field (body.title=Hello), and --link sets a field to a content link to another item. --schema names the content type (body._meta.schema), which must be assigned to the repository.',
  examples: [
    'cms item create --repo content --label Home --schema https://schemas.example.com/page.json --set body.title=Welcome',
    'cms item create --repo content --body-file home.json --locale en-GB',
  ],
  options: [
    hubOption,
    { ...repoOption, description: 'content repository (id or name)', required: true },
    { flags: '--label <label>', description: 'display label' },
    { flags: '--schema <uri>', description: 'content type URI (body._meta.schema)' },
    { flags: '--folder <id>', description: 'folder of the repository to create it in' },
    { flags: '--locale <locale>', description: 'locale such as en-GB (one of the repository item locales, if it has any)' },
    bodyFileOption,
    setOption, setStringOption, linkOption,
  ],
  async run(ctx, _args, opts) {
    const request = await buildBody({ bodyFile: opts.bodyFile }, { label: opts.label, folderId: opts.folder, locale: opts.locale });
    if (opts.schema) applySets(request, [`body._meta.schema=${JSON.stringify(opts.schema)}`]);
    applySets(request, opts.set, opts.setString);
    const client = await ctx.client();
    await applyLinks(client, request, opts.link);
    const repo = await repoId(ctx, opts.repo!, opts.hub, client);
    return item(await client.post(`/content-repositories/${repo}/content-items`, request), ITEM_COLUMNS);
  },
});
