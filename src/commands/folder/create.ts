import { defineCommand } from '../../cli/define.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { FOLDER_COLUMNS, folderPlace, parentOption } from './_shared.js';

export default defineCommand<{ hub?: string; repo?: string; parent?: string; name?: string }>({
  summary: 'Create a folder at the top of a repository, or inside another folder',
  description: 'The name is given with --name, as for every other create (a bare name still works, with a deprecation warning).',
  examples: ['cms folder create --name Campaigns --repo content', 'cms folder create --name "Spring 2026" --parent 5f1a2b3c4d5e6f7a8b9c0d1e'],
  args: [{ name: 'name', description: 'deprecated: use --name' }],
  options: [{ flags: '--name <name>', description: 'folder name (required)' }, hubOption, repoOption, parentOption],
  async run(ctx, args, opts) {
    const name = folderName(ctx, args.name as string | undefined, opts.name);
    const client = await ctx.client();
    return item(await client.post(await folderPlace(ctx, client, opts), { name }), FOLDER_COLUMNS);
  },
});

/** --name, or the older positional form (with a warning: scripts keep working while they move). */
function folderName(ctx: { io: { warn(message: string): void } }, positional: string | undefined, flag: string | undefined): string {
  if (positional !== undefined && flag !== undefined) throw new UsageError(`Give the folder name once: --name ${JSON.stringify(flag)} (not also '${positional}')`);
  if (positional !== undefined) ctx.io.warn(`\`cms folder create <name>\` is deprecated; use \`cms folder create --name ${JSON.stringify(positional)}\``);
  const name = flag ?? positional;
  if (!name) throw new UsageError('Missing the folder name: --name <name>', 'e.g. cms folder create --name Campaigns --repo content');
  return name;
}
