import { defineCommand } from '../cli/define.js';
import type { Context } from '../cli/context.js';
import { readProfiles } from '../config/profiles.js';
import { text } from '../output/result.js';
import { hasHidden } from '../output/visible.js';

const KINDS = ['hubs', 'repositories', 'events', 'editions', 'draft-editions', 'profiles'] as const;
const LIMIT = 200;
/** A shell waits on completion: give up quickly (CMS_COMPLETE_TIMEOUT_MS overrides, for slow machines). */
const deadlineMs = () => Number(process.env.CMS_COMPLETE_TIMEOUT_MS) || 2000;

/** One completion candidate: the word the command accepts, and what zsh and fish show beside it. */
interface Candidate {
  word: string;
  description: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export default defineCommand<{ hub?: string }>({
  name: '__complete',
  hidden: true,
  summary: 'Identifiers for shell completion (quick, silent on errors)',
  description:
    'Prints one candidate a line, `word<TAB>description`. Words come from the service and are data: the completion scripts insert them quoted, never evaluated. A name that is not a plain word (a newline or a tab in it, or a leading - that makes it an option even quoted) is offered by its id, and an id that is not a plain word is not offered.',
  examples: ['cms __complete hubs', 'cms __complete repositories --hub demo'],
  args: [{ name: 'kind', description: KINDS.join(', '), required: true }],
  options: [{ flags: '--hub <id|name>', description: 'hub for repositories, events and editions' }],
  async run(ctx, args, opts) {
    // Completion must never print an error or hang the shell: anything wrong prints nothing.
    const timer = setTimeout(() => ctx.abort.abort(), deadlineMs());
    ctx.sayRetrying = false;
    try {
      return text((await candidates(ctx, args.kind, opts.hub)).map((c) => `${c.word}\t${c.description}`).join('\n'));
    } catch {
      return;
    } finally {
      clearTimeout(timer);
    }
  },
});

/**
 * A word a shell may offer: on one line, not an option once the shell removes the quotes it
 * inserts it with (`'--profile=prod'` is still --profile=prod to cms), and printed as it is (the
 * output chokepoint shows a bidi control or an invisible character escaped, which would not
 * read back as the name). Ids from a hostile service are no safer than names.
 */
const plainWord = (w: string) => w !== '' && !w.startsWith('-') && w === w.replace(CONTROL, '') && !hasHidden(w);

/** A name as the word when it is a plain word, else the id when that is; the description names the other. */
function byName(name: unknown, id: string, label?: unknown): Candidate | undefined {
  const n = typeof name === 'string' ? name : '';
  const shown = [typeof label === 'string' && label !== n ? label : '', id].filter(Boolean).join(' · ');
  if (plainWord(n)) return { word: n, description: clean(shown) };
  return byId(id, n || String(label ?? ''));
}

/** The id as the word (with `description` beside it), or nothing when the id is not a plain word either. */
function byId(id: unknown, description: string): Candidate | undefined {
  const word = typeof id === 'string' ? id : '';
  return plainWord(word) ? { word, description: clean(description) } : undefined;
}

const clean = (s: string) => s.replace(CONTROL, ' ').slice(0, 200);

async function candidates(ctx: Context, kind: string, hub?: string): Promise<Candidate[]> {
  if (kind === 'profiles') {
    return Object.entries(readProfiles(ctx.env).profiles)
      .filter(([name]) => plainWord(name))
      .map(([name, p]) => ({ word: name, description: clean(p.apiUrl ?? 'sandbox') }));
  }
  const client = await ctx.client();
  const take = async (url: string, key: string) => {
    const out: any[] = [];
    for await (const x of client.paginate(url, key, { limit: LIMIT })) out.push(x);
    return out;
  };
  const offered = (list: (Candidate | undefined)[]) => list.filter((c): c is Candidate => c !== undefined);
  if (kind === 'hubs') return offered((await take('/hubs', 'hubs')).map((h) => byName(h.name, h.id, h.label)));
  const hubId = await ctx.hubId(hub, client);
  if (kind === 'repositories') return offered((await take(`/hubs/${hubId}/content-repositories`, 'content-repositories')).map((r) => byName(r.name, r.id, r.label)));
  if (kind === 'events') {
    const events = await take(`/hubs/${hubId}/events`, 'events');
    // A name two events share resolves to neither: offer those by id.
    const count = new Map<string, number>();
    for (const e of events) count.set(e.name, (count.get(e.name) ?? 0) + 1);
    return offered(events.map((e) => (count.get(e.name)! > 1 ? byId(e.id, String(e.name)) : byName(e.name, e.id))));
  }
  if (kind === 'editions' || kind === 'draft-editions') {
    // Editions are named by id only; the name is the description. Scheduling takes DRAFT ones only.
    const editions = await take(`/hubs/${hubId}/editions?rangeStart=1970-01-01T00:00:00Z&rangeEnd=9999-12-31T00:00:00Z`, 'editions');
    const wanted = kind === 'editions' ? editions : editions.filter((e) => e.publishingStatus === 'DRAFT' && e.status !== 'ARCHIVED');
    return offered(wanted.map((e) => byId(e.id, String(e.name ?? ''))));
  }
  return [];
}
