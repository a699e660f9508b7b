import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import type { ApiClient } from '../../core/client.js';
import { ApiError, NotFound, UsageError } from '../../core/errors.js';
import { col, done, item } from '../../output/result.js';

const PREVIEW_COLUMNS = [col('edition', 'editionId'), col('type'), col('snapshots', (p: { snapshotIds: string[] }) => p.snapshotIds.join(', ')), col('created', 'createdDate'), col('by', 'createdBy')];

export default defineCommand<{ create?: boolean; type: string; delete?: boolean; yes?: boolean }>({
  summary: 'Show, create or delete the preview of an edition',
  description: 'Without flags, shows the preview. --create previews a DRAFT edition (its snapshots as they are now); --delete removes the preview, which a scheduled edition keeps.',
  examples: ['cms edition preview 5f1a2b3c4d5e6f7a8b9c0d1e', 'cms edition preview 5f1a2b3c4d5e6f7a8b9c0d1e --create', 'cms edition preview 5f1a2b3c4d5e6f7a8b9c0d1e --delete --yes'],
  args: [{ name: 'edition', description: 'edition id', required: true }],
  options: [
    { flags: '--create', description: 'create (or replace) the preview' },
    { flags: '--type <type>', description: 'preview type', default: 'QUICKPREVIEW', upperCase: true },
    { flags: '--delete', description: 'delete the preview' },
    yesOption,
  ],
  async run(ctx, args, opts) {
    if (opts.create && opts.delete) throw new UsageError('Give --create or --delete, not both');
    const client = await ctx.client();
    const href = `/editions/${args.edition}/preview`;
    if (opts.delete) {
      await confirm(ctx, `Delete the preview of edition ${args.edition}?`, opts.yes);
      await client.delete(href);
      return done(`Deleted the preview of edition ${args.edition}`);
    }
    if (opts.create) {
      // The edition as the caller sees it now: the service refuses a preview of a stale copy.
      const edition = await client.get<{ lastModifiedDate: string }>(`/editions/${args.edition}`);
      return item(await client.post(href, { lastModifiedDate: edition.lastModifiedDate, type: opts.type }), PREVIEW_COLUMNS);
    }
    return item(await existingPreview(client, args.edition), PREVIEW_COLUMNS);
  },
});

/** The preview; an edition without one is told how to make it (a 404 alone does not say which is missing). */
async function existingPreview(client: ApiClient, editionId: string): Promise<unknown> {
  try {
    return await client.get(`/editions/${editionId}/preview`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    const edition = await client.get<{ name: string }>(`/editions/${editionId}`);
    throw new NotFound(`Edition '${edition.name}' has no preview`, `Create one: cms edition preview ${editionId} --create`);
  }
}
