import { defineCommand } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { TYPE_COLUMNS, findType } from './_shared.js';

export default defineCommand<{ hub?: string; label?: string; bodyFile?: string; set?: string[] }>({
  summary: 'Change the settings of a content type (label, icons, visualizations, cards)',
  description:
    'The service replaces the settings whole, so this starts from the current settings (or --body-file) and applies --label and --set on top.',
  examples: ['cms type update Banner --label "Hero banner"', 'cms type update Banner --set settings.visualizations=\'[{"label":"Preview","templatedUri":"https://preview.example.com/{{contentItemId}}"}]\''],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption, { flags: '--label <label>', description: 'new label' }, bodyFileOption, setOption, setStringOption],
  async run(ctx, args, opts) {
    if (opts.label === undefined && !opts.bodyFile && !opts.set?.length && !(opts as { setString?: string[] }).setString?.length) throw new UsageError('Nothing to change', 'Give --label, --set or --body-file.');
    const client = await ctx.client();
    const current = await findType(ctx, client, args.type, opts.hub);
    const body = await buildBody(opts, opts.bodyFile ? {} : { settings: current.settings });
    if (opts.label !== undefined) body.settings = { ...(body.settings as object | undefined), label: opts.label };
    return item(await client.patch(`/content-types/${current.id}`, body), TYPE_COLUMNS);
  },
});
