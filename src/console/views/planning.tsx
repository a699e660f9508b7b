import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { go, href, type Route } from '../router.js';
import { Async, Badge, Field, HubPicker, Section, useData, useHub, when } from '../ui.js';
import { blockingChecks, overlapsOf, preconditions, type Check } from '../../ops/schedule-checks.js';

// Planning: events and editions on a timeline, collisions marked, a "now" line (the sandbox
// clock, movable) showing per slot which edition's content is live then, and scheduling with the
// CLI's precondition checklist (src/ops/schedule-checks.ts).

interface Edition {
  id: string;
  name: string;
  eventId: string;
  start: string;
  end: string;
  activeEndDate?: boolean;
  publishingStatus: string;
  status: string;
  lastModifiedDate: string;
  slots: { slotId: string; slotLabel: string; status: string; conflicts?: boolean }[];
}

/** Statuses whose content goes live at the start (as the service's planned-version rule). */
const WILL_PUBLISH = new Set(['SCHEDULED', 'PUBLISHING', 'PUBLISHED']);

/** Per slot, the edition live at `at`: the latest-starting one that publishes by then and has not expired. */
export function liveAt(editions: Edition[], at: number): Map<string, { label: string; edition: Edition | null }> {
  const out = new Map<string, { label: string; edition: Edition | null }>();
  for (const e of editions) for (const s of e.slots) if (!out.has(s.slotId)) out.set(s.slotId, { label: s.slotLabel, edition: null });
  const candidates = editions
    .filter((e) => WILL_PUBLISH.has(e.publishingStatus) && e.status !== 'ARCHIVED' && Date.parse(e.start) <= at && !(e.activeEndDate && Date.parse(e.end) <= at))
    .sort((a, b) => Date.parse(b.start) - Date.parse(a.start));
  for (const [slotId, entry] of out) entry.edition = candidates.find((e) => e.slots.some((s) => s.slotId === slotId)) ?? null;
  return out;
}

/** Pairs of editions that overlap in time and share a slot. */
function collisions(editions: Edition[]): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  const live = editions.filter((e) => e.status !== 'ARCHIVED');
  for (const a of live)
    for (const b of live) {
      if (a.id >= b.id || !(Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end))) continue;
      const shared = a.slots.filter((s) => b.slots.some((t) => t.slotId === s.slotId)).map((s) => s.slotLabel);
      if (!shared.length) continue;
      marks.set(a.id, [...(marks.get(a.id) ?? []), `${shared.join(', ')} with '${b.name}'`]);
      marks.set(b.id, [...(marks.get(b.id) ?? []), `${shared.join(', ')} with '${a.name}'`]);
    }
  return marks;
}

export function PlanningView({ route }: { route: Route }) {
  const { hubId, error } = useHub(route.query.get('hub'));
  const selected = route.parts[1] === 'edition' ? route.parts[2] : undefined;
  const [version, setVersion] = useState(0);
  const state = useData(async () => {
    if (!hubId) return null;
    const [events, clock] = await Promise.all([api.all(`/hubs/${hubId}/events`, 'events'), api.get('/__sandbox/clock')]);
    const editions = (await Promise.all(events.map((ev: any) => api.all(`/events/${ev.id}/editions`, 'editions')))).flat();
    const withSlots: Edition[] = await Promise.all(editions.map(async (e: any) => ({ ...e, slots: (await api.page(`/editions/${e.id}/slots`, 'edition-slots', { size: 100 })).items })));
    return { events, editions: withSlots, clock: Date.parse(clock.now) };
  }, [hubId, version]);
  return (
    <>
      <div class="view-head">
        <h1>Planning</h1>
        <HubPicker view="planning" hubId={hubId} />
      </div>
      {error && <p class="error">{error.message}</p>}
      <Async state={state}>
        {(data) =>
          !data ? (
            <p>No hub.</p>
          ) : (
            <Plan data={data} hubId={hubId!} selected={selected} changed={() => setVersion((v) => v + 1)} />
          )
        }
      </Async>
    </>
  );
}

function Plan({ data, hubId, selected, changed }: { data: { events: any[]; editions: Edition[]; clock: number }; hubId: string; selected?: string; changed: () => void }) {
  const { events, editions, clock } = data;
  const [at, setAt] = useState(clock);
  const [typed, setTyped] = useState(new Date(clock).toISOString());
  useEffect(() => {
    setAt(clock);
    setTyped(new Date(clock).toISOString());
  }, [clock]);
  const times = [...events.flatMap((e) => [Date.parse(e.start), Date.parse(e.end)]), ...editions.flatMap((e) => [Date.parse(e.start), Date.parse(e.end)]), clock].filter((t) => !Number.isNaN(t));
  const day = 86_400_000;
  const from = Math.min(...times) - day / 2;
  const to = Math.max(...times) + day / 2;
  const pos = (t: number) => `${(((t - from) / (to - from)) * 100).toFixed(3)}%`;
  const width = (a: string, b: string) => `${Math.max(0.5, ((Date.parse(b) - Date.parse(a)) / (to - from)) * 100).toFixed(3)}%`;
  const marks = collisions(editions);
  const live = liveAt(editions, at);
  const move = (t: number) => {
    setAt(t);
    setTyped(new Date(t).toISOString());
  };
  return (
    <>
      <Section title="Timeline">
        <div class="timeline" id="timeline">
          <div class="now-line" style={{ left: `calc(14rem + (100% - 14rem) * ${((at - from) / (to - from)).toFixed(4)})` }} aria-hidden="true">
            <span>{new Date(at).toISOString().slice(0, 16).replace('T', ' ')}</span>
          </div>
          {events.map((ev) => (
            <div key={ev.id} class="tl-group">
              <div class="tl-row">
                <span class="tl-name">{ev.name}</span>
                <div class="tl-track">
                  <div class="tl-bar event" style={{ left: pos(Date.parse(ev.start)), width: width(ev.start, ev.end) }} title={`${ev.name}: ${ev.start} – ${ev.end}`} />
                </div>
              </div>
              {editions
                .filter((e) => e.eventId === ev.id)
                .map((e) => {
                  const conflicted = e.slots.some((s) => s.conflicts);
                  const collided = marks.get(e.id);
                  return (
                    <div key={e.id} class="tl-row">
                      <span class="tl-name edition-name">
                        <a href={href(['planning', 'edition', e.id], { hub: hubId })} aria-current={e.id === selected ? 'true' : undefined}>
                          {e.name}
                        </a>{' '}
                        {collided && (
                          <span class="flag collision" title={`Slot collision: ${collided.join('; ')}`}>
                            ⚠ collision
                          </span>
                        )}
                        {conflicted && <span class="flag conflict">⚠ conflict</span>}
                      </span>
                      <div class="tl-track">
                        <a
                          href={href(['planning', 'edition', e.id], { hub: hubId })}
                          class={`tl-bar edition status-${e.publishingStatus.toLowerCase()}${collided ? ' collided' : ''}`}
                          style={{ left: pos(Date.parse(e.start)), width: width(e.start, e.end) }}
                          title={`${e.name} (${e.publishingStatus}): ${e.start} – ${e.end}`}
                          aria-label={`${e.name}, ${e.publishingStatus}, ${when(e.start)} to ${when(e.end)}`}
                        />
                      </div>
                    </div>
                  );
                })}
            </div>
          ))}
          {!events.length && <p class="muted">No events in this hub.</p>}
        </div>
        <div class="row now-controls">
          <Field id="now-slider" label="Show live content at">
            <input id="now-slider" type="range" min={from} max={to} step={3_600_000} value={at} onInput={(e) => move(Number((e.target as HTMLInputElement).value))} />
          </Field>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              const t = Date.parse(typed);
              if (!Number.isNaN(t)) setAt(t);
            }}
          >
            <Field id="now-typed" label="Date and time (ISO)">
              <input id="now-typed" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
            </Field>
            <button type="submit">Show</button>
          </form>
          <button type="button" onClick={() => move(clock)}>
            Back to the sandbox clock
          </button>
        </div>
      </Section>
      <div class="columns">
        <Section title={`Live at ${when(new Date(at).toISOString())}`}>
          <table id="live-table">
            <thead>
              <tr>
                <th scope="col">Slot</th>
                <th scope="col">Live edition</th>
              </tr>
            </thead>
            <tbody>
              {[...live].map(([slotId, { label, edition }]) => (
                <tr key={slotId}>
                  <th scope="row">{label}</th>
                  <td>{edition ? <>{edition.name} <Badge value={edition.publishingStatus} /></> : <span class="muted">no edition: the slot's last published content</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {!live.size && <p class="muted">No edition uses a slot.</p>}
          <p class="muted">Sandbox clock: {when(new Date(clock).toISOString())}</p>
        </Section>
        {selected ? <EditionPanel key={selected} editionId={selected} hubId={hubId} changed={changed} /> : <Section title="Edition">
          <p class="muted">Choose an edition on the timeline to see its checklist and schedule it.</p>
        </Section>}
      </div>
    </>
  );
}

const IN_PUBLICATION = new Set(['SCHEDULING', 'SCHEDULED', 'PUBLISHING']);

/** The listings the checklist reads; null when the service does not answer one (as the CLI). */
async function entries(path: string, key: string): Promise<any[] | null> {
  try {
    return (await api.page(path, key, { size: 1000 })).items;
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

function EditionPanel({ editionId, hubId, changed }: { editionId: string; hubId: string; changed: () => void }) {
  const [n, setN] = useState(0);
  const state = useData(async () => {
    const edition = await api.get(`/editions/${editionId}`);
    const event = await api.get(`/events/${edition.eventId}`);
    const [slots, contents, conflicts, collisionsList, inRange, clock] = await Promise.all([
      entries(`/editions/${edition.id}/slots`, 'edition-slots'),
      entries(`/editions/${edition.id}/contents`, 'edition-content'),
      entries(`/editions/${edition.id}/conflicts`, 'conflicts'),
      entries(`/editions/${edition.id}/slot-collisions`, 'slot-collisions'),
      api.all(`/hubs/${hubId}/editions`, 'editions', { rangeStart: edition.start, rangeEnd: edition.end }).catch(() => null),
      api.get('/__sandbox/clock'),
    ]);
    const checks = preconditions(edition, event, { slots, contents, conflicts, collisions: collisionsList }, Date.parse(clock.now), overlapsOf(edition, inRange));
    return { edition, event, checks };
  }, [editionId, n]);
  const [ignore, setIgnore] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      await what();
      setMessage({ kind: 'ok', text: done });
      setN((x) => x + 1);
      changed();
    } catch (err) {
      const e = err as ApiError;
      setMessage({ kind: 'error', text: e.errors?.length ? e.errors.map((p) => `${p.level ?? 'ERROR'} ${p.code ?? ''}: ${p.message}`).join('\n') : e.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Async state={state}>
      {({ edition, event, checks }) => {
        const draft = edition.publishingStatus === 'DRAFT' && edition.status === 'ACTIVE';
        const blocking = blockingChecks(checks);
        const startsLater = checks.find((c: Check) => c.label === 'starts in the future')?.problem;
        return (
          <Section title={`Edition: ${edition.name}`}>
            <dl class="facts">
              <div>
                <dt>Event</dt>
                <dd>{event.name}</dd>
              </div>
              <div>
                <dt>Publishing</dt>
                <dd>
                  <Badge value={edition.publishingStatus} />
                </dd>
              </div>
              <div>
                <dt>Starts</dt>
                <dd>{when(edition.start)}</dd>
              </div>
              <div>
                <dt>Ends</dt>
                <dd>{when(edition.end)}</dd>
              </div>
            </dl>
            <h3>Preconditions</h3>
            <ul class="checklist" id="checklist">
              {checks.map((c: Check) => (
                <li key={c.label} class={c.problem ? (c.level === 'ERROR' ? 'fail' : 'warn') : 'pass'}>
                  <span aria-hidden="true">{c.problem ? (c.level === 'ERROR' ? '✗' : '!') : '✓'}</span> <strong>{c.label}</strong>
                  <span class="sr-only">{c.problem ? (c.level === 'ERROR' ? ' (fails)' : ' (warning)') : ' (holds)'}</span>
                  {c.problem && (
                    <>
                      : {c.problem}
                      {c.fix && <div class="fix">fix: {c.fix}</div>}
                    </>
                  )}
                </li>
              ))}
            </ul>
            {draft ? (
              <div class="row">
                <label class="check">
                  <input type="checkbox" checked={ignore} onChange={(e) => setIgnore((e.target as HTMLInputElement).checked)} /> Ignore warnings
                </label>
                <button
                  type="button"
                  id="schedule-button"
                  disabled={busy || blocking.length > 0 || !!startsLater}
                  onClick={() => act(() => api.post(`/editions/${edition.id}/schedule`, { lastModifiedDate: edition.lastModifiedDate }, { ignoreWarnings: ignore ? 'true' : undefined }), `'${edition.name}' is scheduled for ${when(edition.start)}.`)}
                >
                  Schedule
                </button>
              </div>
            ) : IN_PUBLICATION.has(edition.publishingStatus) ? (
              <button type="button" id="unschedule-button" disabled={busy} onClick={() => act(() => api.del(`/editions/${edition.id}/schedule`), `'${edition.name}' is back to DRAFT.`)}>
                Unschedule
              </button>
            ) : (
              <p class="muted">Only a DRAFT edition that is not archived can be scheduled.</p>
            )}
            {message && (
              <p class={message.kind === 'ok' ? 'ok' : 'error'} role={message.kind === 'ok' ? 'status' : 'alert'} id="schedule-message">
                {message.text}
              </p>
            )}
            <p>
              <a href={href(['planning'], { hub: hubId })} onClick={() => go(href(['planning'], { hub: hubId }))}>
                Close
              </a>
            </p>
          </Section>
        );
      }}
    </Async>
  );
}
