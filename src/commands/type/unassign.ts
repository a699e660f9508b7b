import { defineCommand } from '../../cli/define.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';
import { findType } from './_shared.js';

export default defineCommand<{ hub?: string; repo?: string }>({
  summary: 'Unassign a content type from a repository (its existing items stay)',
  examples: ['cms type unassign Banner --repo content'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption, { ...repoOption, description: 'the repository (id or name)' }],
  async run(ctx, args, opts) {
    if (!opts.repo) throw new UsageError('Name the repository with --repo <repo>');
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    await client.delete(`/content-repositories/${await repoId(ctx, opts.repo, opts.hub, client)}/content-types/${type.id}`);
    return done(`Unassigned ${type.settings.label} from repository ${opts.repo}`);
  },
});
