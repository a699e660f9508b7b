import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { forgetHubs, Async, Field, Section, useData, when } from '../ui.js';

// Sandbox: the clock (set, advance, freeze, resume), injected faults and their counters, the
// request journal (the newest requests answered, redacted by the server), reset. Every action is
// a sandbox admin call with the signed-in client's token.

export function SandboxView() {
  const [n, setN] = useState(0);
  const state = useData(
    async () => ({ clock: await api.get('/__sandbox/clock'), faults: await api.get('/__sandbox/faults'), journal: await api.get(`/__sandbox/requests?order=newest&limit=${JOURNAL_ROWS}`) }),
    [n],
  );
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const refresh = () => setN((x) => x + 1);
  const act = async (what: () => Promise<unknown>, done: string) => {
    setMessage(null);
    try {
      await what();
      setMessage({ ok: true, text: done });
      refresh();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  };
  const [advance, setAdvance] = useState('1h');
  const [set, setSet] = useState('');
  const [spec, setSpec] = useState('');
  return (
    <>
      <h1>Sandbox</h1>
      {message && (
        <p class={message.ok ? 'ok' : 'error'} role={message.ok ? 'status' : 'alert'} id="sandbox-message">
          {message.text}
        </p>
      )}
      <Async state={state}>
        {({ clock, faults, journal }) => (
          <div class="columns">
            <Section title="Clock">
              <p class="clock" id="clock-now">
                {when(clock.now)}
              </p>
              <p class="muted">{clock.realTime ? 'Real time.' : clock.frozen ? 'Frozen.' : `Running, ${Math.round(clock.offsetMs / 60000)} minutes from real time.`}</p>
              <form
                class="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  act(() => api.post('/__sandbox/clock', { advance }), `Advanced by ${advance}; due work ran.`);
                }}
              >
                <Field id="clock-advance" label="Advance by (90m, 2h, 3d)">
                  <input id="clock-advance" value={advance} onInput={(e) => setAdvance((e.target as HTMLInputElement).value)} />
                </Field>
                <button type="submit">Advance</button>
              </form>
              <form
                class="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  act(() => api.post('/__sandbox/clock', { set }), `Set to ${set}.`);
                }}
              >
                <Field id="clock-set" label="Set to (ISO date-time)">
                  <input id="clock-set" value={set} placeholder={clock.now} onInput={(e) => setSet((e.target as HTMLInputElement).value)} />
                </Field>
                <button type="submit">Set</button>
              </form>
              <div class="row">
                {clock.frozen ? (
                  <button type="button" onClick={() => act(() => api.post('/__sandbox/clock', { resume: true }), 'The clock runs again.')}>
                    Resume
                  </button>
                ) : (
                  <button type="button" onClick={() => act(() => api.post('/__sandbox/clock', { freeze: true }), 'The clock is frozen.')}>
                    Freeze
                  </button>
                )}
                <button type="button" onClick={() => act(() => api.post('/__sandbox/clock', { set: new Date().toISOString() }), 'Back to real time.')}>
                  Real time
                </button>
              </div>
            </Section>
            <Section title="Faults">
              <p class="muted">{faults.requests ?? 0} requests seen since the rules were set.</p>
              {faults.rules?.length ? (
                <table id="faults-table">
                  <thead>
                    <tr>
                      <th scope="col">Rule</th>
                      <th scope="col">Injected</th>
                    </tr>
                  </thead>
                  <tbody>
                    {faults.rules.map((r: any, i: number) => (
                      <tr key={i}>
                        <td>
                          <code>{describe(r)}</code>
                        </td>
                        <td>{r.injected ?? 0}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p class="muted">No faults are injected.</p>
              )}
              <form
                class="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  act(() => api.post('/__sandbox/faults', { spec }), 'Fault rules replaced.');
                }}
              >
                <Field id="fault-spec" label="Rules (e.g. 503 10% on GET /v2/content/**)">
                  <input id="fault-spec" value={spec} onInput={(e) => setSpec((e.target as HTMLInputElement).value)} />
                </Field>
                <button type="submit">Apply</button>
              </form>
              <button type="button" onClick={() => act(() => api.del('/__sandbox/faults'), 'Faults cleared.')}>
                Clear faults
              </button>
            </Section>
            <Section title="Requests" wide actions={<button type="button" onClick={refresh}>Refresh</button>}>
              <p class="muted">The newest {JOURNAL_ROWS} requests the sandbox answered (secrets redacted); cms sandbox requests --follow shows them as they come.</p>
              {journal.requests?.length ? (
                <table id="requests-table">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Client</th>
                      <th scope="col">Request</th>
                      <th scope="col">Status</th>
                      <th scope="col">ms</th>
                      <th scope="col">Fault</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...journal.requests].reverse().map((r: any) => (
                      <tr key={r.id} class={r.status === null || r.status >= 400 ? 'failed' : undefined}>
                        <td>{when(r.time)}</td>
                        <td>{r.clientId ?? '—'}</td>
                        <td>
                          <code>
                            {r.method} {r.path}
                            {r.query}
                          </code>
                        </td>
                        <td>{r.status ?? 'dropped'}</td>
                        <td>{r.durationMs}</td>
                        <td>{r.fault ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p class="muted">No requests yet.</p>
              )}
            </Section>
            <Section title="Reset">
              <p>Removes every hub, resource and restricted client; keeps the admin client. This cannot be undone.</p>
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (confirm('Remove everything in this sandbox?')) act(() => api.post('/__sandbox/reset').then(forgetHubs), 'The sandbox is empty.');
                }}
              >
                Reset the sandbox
              </button>
            </Section>
          </div>
        )}
      </Async>
    </>
  );
}

/** Rows of the request journal shown, newest first. */
const JOURNAL_ROWS = 50;

/** A rule as the spec syntax writes it: `503 10% on GET /v2/content/**`. */
const describe = (r: any) =>
  [r.kind === 'status' ? r.status : r.kind === 'latency' ? `latency ${r.ms}ms` : 'drop', `${Math.round(r.rate * 1000) / 10}%`, r.retryAfterSeconds !== undefined && `retry-after ${r.retryAfterSeconds}`, (r.method || r.path) && 'on', r.method, r.path]
    .filter(Boolean)
    .join(' ');
