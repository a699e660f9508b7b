import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption } from '../../cli/options.js';
import { list } from '../../output/result.js';
import { ITEM_COLUMNS, labelWorkflow } from './_shared.js';

export default defineCommand<{ hub?: string; projection?: string; sort?: string; limit: number }>({
  summary: 'Search the content items of a hub by text',
  description: [
    'Searches the active items of a hub (labels and body text) and lists the matches, best first.',
    'Syntax: apple (the word), apple orange (both), apple,orange (either), apple -orange (not orange), apple-orange (the hyphenated word, one word), label:apple or title:"big fish" (within a field: label, status, locale, schema, deliveryKey, contentRepositoryId, folderId or a body property), "10:30" (exact: "apple orange" does not match apple-orange; quotes are needed for - : , and "; an unmatched quote runs to the end). Case and accents do not matter. status:archived searches archived items.',
    'Put -- before a query that starts with a hyphen, after every option: cms item find --sort label,asc -- -draft.',
  ].join('\n\n'),
  examples: [
    'cms item find apple',
    'cms item find "apple,orange -pear title:\\"big fish\\""',
    'cms item find "label:banner status:archived" --projection basic -o json',
    'cms item find --sort label,asc -- -draft',
  ],
  args: [{ name: 'query', description: 'what to search for (see the syntax above)', required: true }],
  options: [
    hubOption,
    { flags: '--projection <projection>', description: 'basic: items without their body (with the schema)', choices: ['basic'] },
    { flags: '--sort <field,dir>', description: 'createdDate, lastModifiedDate or label with ,asc or ,desc (default: relevance)' },
    limitOption, allOption,
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const query = { query: String(args.query), projection: opts.projection, sort: opts.sort };
    return list(labelWorkflow(ctx, client, client.paginate(`/hubs/${hubId}/content-items/find`, 'content-items', { query, limit: limitOf(opts) })), ITEM_COLUMNS, limitOf(opts));
  },
});
