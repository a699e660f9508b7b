import { defineCommand } from '../../cli/define.js';
import { bodyFileOption, hubOption, setOption, setStringOption } from '../../cli/options.js';
import { buildBody } from '../../cli/input.js';
import { item } from '../../output/result.js';
import { INDEX_COLUMNS } from './_shared.js';

export default defineCommand<{ hub?: string; suffix?: string; label?: string; type?: string; contentType?: string[]; bodyFile?: string; set?: string[] }>({
  summary: 'Create a search index named <hub name>.<suffix>',
  description:
    'The hub needs the search index module (cms admin enable search-index). Suffix and label are 3 to 63 characters; a suffix has none of / ~ , \\ ` & | ; $ * (lengths count characters, an emoji is one). Each --content-type is assigned to the index: published items of that type are indexed, archived ones removed.',
  examples: ['cms index create --suffix products --label Products --type PRODUCTION --content-type https://schemas.example.com/product.json', 'cms index create --suffix staging-products --label "Staging products" --type STAGING'],
  options: [
    hubOption,
    { flags: '--suffix <suffix>', description: 'the name after "<hub name>."', required: true, inBody: true },
    { flags: '--label <label>', description: 'label', required: true, inBody: true },
    { flags: '--type <type>', description: 'PRODUCTION or STAGING', choices: ['PRODUCTION', 'STAGING'], default: 'PRODUCTION' },
    { flags: '--content-type <uri>', description: 'content type to assign (repeatable)', repeatable: true },
    bodyFileOption,
    setOption, setStringOption,
  ],
  async run(ctx, _args, opts) {
    const assigned = opts.contentType?.map((contentTypeUri) => ({ contentTypeUri }));
    const body = await buildBody(opts, { suffix: opts.suffix, label: opts.label, type: opts.type, assignedContentTypes: assigned }, ['suffix', 'label']);
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    body.assignedContentTypes ??= [];
    return item(await client.post(`/hubs/${hubId}/search-indexes`, body), INDEX_COLUMNS);
  },
});
