import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption, hubOption } from '../../cli/options.js';
import type { ApiClient } from '../../core/client.js';
import { ApiError } from '../../core/errors.js';
import { list } from '../../output/result.js';
import { JOB_COLUMNS } from './_columns.js';

export default defineCommand<{ snapshot?: string; limit: number; all?: boolean; hub?: string }>({
  summary: "List publishing jobs: a snapshot's, or the hub's",
  description:
    "Without --snapshot, lists the hub's publishing jobs, newest first: the sandbox answers them in one listing; on another service they are gathered from the jobs of each snapshot of the hub.",
  examples: ['cms job list', 'cms job list --hub demo --all', 'cms job list --snapshot 5f1a2b3c4d5e6f7a8b9c0d1e'],
  options: [{ flags: '--snapshot <id>', description: 'snapshot whose jobs to list (default: every job of the hub)' }, hubOption, limitOption, allOption],
  async run(ctx, _args, opts) {
    const client = await ctx.client();
    const limit = limitOf(opts);
    if (opts.snapshot) return list(client.paginate(`/snapshots/${opts.snapshot}/publishing-jobs`, 'publishing-jobs', { limit }), JOB_COLUMNS, limit);
    const hubId = await ctx.hubId(opts.hub, client);
    const sandbox = `/__sandbox/hubs/${hubId}/publishing-jobs`;
    if (await answers(client, sandbox)) return list(client.paginate(sandbox, 'publishing-jobs', { limit }), JOB_COLUMNS, limit);
    return list(jobsOfSnapshots(client, hubId, limit), JOB_COLUMNS, limit);
  },
});

/** Whether the service has the sandbox's hub-wide listing (a hosted service answers 404). */
async function answers(client: ApiClient, path: string): Promise<boolean> {
  try {
    await client.get(path, { query: { size: 1 } });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

/** The hub's jobs through its snapshots (newest snapshots first), up to the limit. */
async function* jobsOfSnapshots(client: ApiClient, hubId: string, limit: number | undefined): AsyncGenerator<unknown> {
  let yielded = 0;
  for await (const snapshot of client.paginate<{ id: string }>(`/hubs/${hubId}/snapshots`, 'snapshots', { query: { sort: 'createdDate,desc' } })) {
    for await (const job of client.paginate(`/snapshots/${snapshot.id}/publishing-jobs`, 'publishing-jobs')) {
      yield job;
      if (limit !== undefined && ++yielded >= limit) return;
    }
  }
}
