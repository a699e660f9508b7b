import { defineCommand } from '../cli/define.js';
import type { Context } from '../cli/context.js';
import { readProfiles } from '../config/profiles.js';
import { text } from '../output/result.js';

const KINDS = ['hubs', 'repositories', 'events', 'editions', 'profiles'] as const;
const LIMIT = 200;
/** A shell waits on completion: give up quickly (CMS_COMPLETE_TIMEOUT_MS overrides, for slow machines). */
const deadlineMs = () => Number(process.env.CMS_COMPLETE_TIMEOUT_MS) || 2000;

export default defineCommand<{ hub?: string }>({
  name: '__complete',
  hidden: true,
  summary: 'Identifiers for shell completion (quick, silent on errors)',
  examples: ['cms __complete hubs', 'cms __complete repositories --hub demo'],
  args: [{ name: 'kind', description: KINDS.join(', '), required: true }],
  options: [{ flags: '--hub <id|name>', description: 'hub for repositories, events and editions' }],
  async run(ctx, args, opts) {
    // Completion must never print an error or hang the shell: anything wrong prints nothing.
    const timer = setTimeout(() => ctx.abort.abort(), deadlineMs());
    try {
      return text((await candidates(ctx, args.kind, opts.hub)).join('\n'));
    } catch {
      return;
    } finally {
      clearTimeout(timer);
    }
  },
});

async function candidates(ctx: Context, kind: string, hub?: string): Promise<string[]> {
  if (kind === 'profiles') return Object.keys(readProfiles(ctx.env).profiles);
  const client = await ctx.client();
  const take = async (url: string, key: string, pick: (x: any) => string) => {
    const out: string[] = [];
    for await (const x of client.paginate(url, key, { limit: LIMIT })) out.push(pick(x));
    return out;
  };
  if (kind === 'hubs') return take('/hubs', 'hubs', (h) => h.name);
  const hubId = await ctx.hubId(hub, client);
  if (kind === 'repositories') return take(`/hubs/${hubId}/content-repositories`, 'content-repositories', (r) => r.name);
  if (kind === 'events') return take(`/hubs/${hubId}/events`, 'events', (e) => e.id);
  if (kind === 'editions') return take(`/hubs/${hubId}/editions?rangeStart=1970-01-01T00:00:00Z&rangeEnd=9999-12-31T00:00:00Z`, 'editions', (e) => e.id);
  return [];
}
