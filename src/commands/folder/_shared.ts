import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import type { ApiClient } from '../../core/client.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { col } from '../../output/result.js';

export const FOLDER_COLUMNS = [col('id'), col('name'), col('parent', 'parentId'), col('repository', 'contentRepositoryId')];

export const parentOption: OptionSpec = { flags: '--parent <folder>', description: 'parent folder id' };

/** Where a folder list or create applies: a repository (top level) or a parent folder. */
export async function folderPlace(ctx: Context, client: ApiClient, opts: { repo?: string; parent?: string; hub?: string }): Promise<string> {
  if (Boolean(opts.repo) === Boolean(opts.parent)) throw new UsageError('Give either --repo <repo> (top level) or --parent <folder>');
  if (opts.parent) return `/folders/${opts.parent}/folders`;
  return `/content-repositories/${await repoId(ctx, opts.repo!, opts.hub, client)}/folders`;
}
