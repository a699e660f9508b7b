import { defineCommand } from '../../cli/define.js';
import { applySets, buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, repoOption, setOption, setStringOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { SLOT_COLUMNS } from './_shared.js';

interface Options {
  hub?: string;
  repo?: string;
  label?: string;
  schema?: string;
  bodyFile?: string;
  set?: string[];
  setString?: string[];
}

export default defineCommand<Options>({
  summary: 'Create a slot in a slots repository',
  description:
    'A slot is created like a content item, from a slot type assigned to a repository with the slots feature. It needs sample data before it can be saved: set at least one field of the slot schema (--set body.title=...).',
  examples: ['cms slot create --repo slots --schema https://schemas.example.com/hero-slot.json --label "Home hero" --set body.title=Sample'],
  options: [
    hubOption,
    { ...repoOption, description: 'slots repository (id or name)', required: true },
    { flags: '--label <label>', description: 'display label' },
    { flags: '--schema <uri>', description: 'slot type URI (body._meta.schema)' },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, _args, opts) {
    if (!opts.repo) throw new UsageError('--repo is required', 'Name the slots repository: cms slot create --repo <id|name>.');
    const request = await buildBody({ bodyFile: opts.bodyFile }, { label: opts.label });
    if (opts.schema) applySets(request, [`body._meta.schema=${JSON.stringify(opts.schema)}`, 'body._meta.name="slot"']);
    applySets(request, opts.set, opts.setString);
    const client = await ctx.client();
    const repo = await repoId(ctx, opts.repo, opts.hub, client);
    return item(await client.post(`/content-repositories/${repo}/content-items`, request), SLOT_COLUMNS);
  },
});
