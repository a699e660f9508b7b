import { defineCommand } from '../../cli/define.js';
import { hubOption, limitOf, limitOption, allOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { SLOT_COLUMNS, slotSchemaUris } from './_shared.js';

export default defineCommand<{ hub?: string; repo?: string; limit: number }>({
  summary: 'List the slots of a slots repository (its items of slot types)',
  description: 'A slot is a content item of a slot type (a content type whose schema has validation level SLOT) in a repository with the slots feature.',
  examples: ['cms slot list --repo slots', 'cms slot list --repo slots -o json'],
  options: [hubOption, { ...repoOption, description: 'slots repository (id or name)', required: true }, limitOption, allOption],
  async run(ctx, _args, opts) {
    if (!opts.repo) throw new UsageError('--repo is required', 'Name the slots repository: cms slot list --repo <id|name>.');
    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    const repo = await repoId(ctx, opts.repo, hubId, client);
    const slotUris = await slotSchemaUris(client, hubId);
    async function* slots() {
      for await (const entry of client.paginate<{ body: { _meta: { schema: string } } }>(`/content-repositories/${repo}/content-items`, 'content-items')) {
        if (slotUris.has(entry.body._meta.schema)) yield entry;
      }
    }
    return list(slots(), SLOT_COLUMNS, limitOf(opts));
  },
});
