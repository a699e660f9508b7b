import { defineCommand } from '../../cli/define.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';
import { findType } from './_shared.js';

export default defineCommand<{ hub?: string; repo?: string }>({
  summary: 'Assign a content type to a repository: items of the type may then be created there',
  examples: ['cms type assign Banner --repo content'],
  args: [{ name: 'type', description: 'content type id, schema URI or label', required: true }],
  options: [hubOption, { ...repoOption, description: 'the repository (id or name)' }],
  async run(ctx, args, opts) {
    if (!opts.repo) throw new UsageError('Name the repository with --repo <repo>');
    const client = await ctx.client();
    const type = await findType(ctx, client, args.type, opts.hub);
    const repo = await client.post(`/content-repositories/${await repoId(ctx, opts.repo, opts.hub, client)}/content-types`, { contentTypeId: type.id });
    return done(`Assigned ${type.settings.label} to repository ${opts.repo}`, repo);
  },
});
