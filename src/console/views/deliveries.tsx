import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { href, type Route } from '../router.js';
import { Async, Badge, HubPicker, Section, useData, useHub, when } from '../ui.js';

// Deliveries and jobs: each webhook's delivery attempts (request, signature, answer, retries,
// re-send), and the hub's publishing, bulk and localization jobs.

export function DeliveriesView({ route }: { route: Route }) {
  const { hubId, error } = useHub(route.query.get('hub'));
  const webhookId = route.parts[1] === 'webhook' ? route.parts[2] : undefined;
  const requestId = route.query.get('request') ?? undefined;
  const hooks = useData(async () => (hubId ? api.all(`/hubs/${hubId}/webhooks`, 'webhooks') : []), [hubId]);
  return (
    <>
      <div class="view-head">
        <h1>Deliveries and jobs</h1>
        <HubPicker view="deliveries" hubId={hubId} />
      </div>
      {error && <p class="error">{error.message}</p>}
      {hubId && (
        <>
          <Section title="Webhooks">
            <Async state={hooks}>
              {(list) =>
                list.length ? (
                  <ul class="plain tabs-list">
                    {list.map((w: any) => (
                      <li key={w.id}>
                        <a href={href(['deliveries', 'webhook', w.id], { hub: hubId })} aria-current={w.id === webhookId ? 'page' : undefined}>
                          {w.label}
                        </a>{' '}
                        <span class="muted">{w.events.join(', ')}</span> {!w.active && <Badge value="INACTIVE" />}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p class="muted">No webhooks in this hub.</p>
                )
              }
            </Async>
          </Section>
          {webhookId && <Attempts key={webhookId} hubId={hubId} webhookId={webhookId} requestId={requestId} />}
          <Jobs hubId={hubId} />
        </>
      )}
    </>
  );
}

function Attempts({ hubId, webhookId, requestId }: { hubId: string; webhookId: string; requestId?: string }) {
  const [n, setN] = useState(0);
  const state = useData(() => api.get(`/hubs/${hubId}/webhooks/${webhookId}/requests`, { limit: 100 }), [hubId, webhookId, n]);
  const [note, setNote] = useState<string | null>(null);
  const resend = async (r: any) => {
    setNote(null);
    try {
      const answer = await api.post(`/__sandbox/hubs/${hubId}/webhooks/${webhookId}/requests/${r.id}/resend`);
      setNote(`Sent again as delivery ${answer.deliveryId}; it appears here once the receiver answers.`);
      setTimeout(() => setN((x) => x + 1), 500);
    } catch (err) {
      setNote((err as Error).message);
    }
  };
  return (
    <Async state={state}>
      {(page) => {
        const rows: any[] = page._embedded?.requests ?? [];
        const open = rows.find((r) => r.id === requestId);
        return (
          <div class="columns">
            <Section title="Delivery attempts" actions={<button type="button" onClick={() => setN((x) => x + 1)}>Refresh</button>}>
              <table id="attempts-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">Attempt</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id} class={r.id === requestId ? 'selected' : ''}>
                      <td>
                        <a href={href(['deliveries', 'webhook', webhookId], { hub: hubId, request: r.id })}>{when(r.createdDate)}</a>
                      </td>
                      <td>{r.eventName}</td>
                      <td>{r.attempt}</td>
                      <td>{r.responseStatus ?? r.error ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {!rows.length && <p class="muted">No delivery attempts yet.</p>}
            </Section>
            <Section title="Delivery">
              {open ? (
                <div id="delivery-detail">
                  <dl class="facts">
                    <div>
                      <dt>Delivery</dt>
                      <dd>
                        <code>{open.deliveryId}</code>
                      </dd>
                    </div>
                    <div>
                      <dt>Request</dt>
                      <dd>
                        {open.method} {open.url}
                      </dd>
                    </div>
                    <div>
                      <dt>Signature</dt>
                      <dd>
                        <code>{open.requestHeaders?.['x-webhook-signature'] ?? 'none (the webhook has no secret)'}</code>
                      </dd>
                    </div>
                    <div>
                      <dt>Answer</dt>
                      <dd>
                        {open.responseStatus ?? 'no answer'} {open.error ? `(${open.error})` : ''} in {open.durationMs} ms
                      </dd>
                    </div>
                    <div>
                      <dt>Retry</dt>
                      <dd>{open.retryScheduledFor ? `attempt ${open.attempt + 1} at ${when(open.retryScheduledFor)}` : 'none'}</dd>
                    </div>
                  </dl>
                  <h3>Request headers</h3>
                  <pre>{Object.entries(open.requestHeaders ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
                  <h3>Request body</h3>
                  <pre>{pretty(open.requestBody)}</pre>
                  <h3>Response body</h3>
                  <pre>{open.responseBody ? pretty(open.responseBody) : '(none)'}</pre>
                  <button type="button" id="resend-button" onClick={() => resend(open)}>
                    Send again
                  </button>
                  {note && (
                    <p role="status" class="ok">
                      {note}
                    </p>
                  )}
                </div>
              ) : (
                <p class="muted">Choose an attempt.</p>
              )}
            </Section>
          </div>
        );
      }}
    </Async>
  );
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function Jobs({ hubId }: { hubId: string }) {
  const state = useData(
    async () => ({
      publishing: (await api.page(`/__sandbox/hubs/${hubId}/publishing-jobs`, 'publishing-jobs', { size: 20 })).items,
      bulk: (await api.page(`/__sandbox/hubs/${hubId}/bulk-jobs`, 'bulk-jobs', { size: 20 })).items,
      localization: (await api.page(`/hubs/${hubId}/localization-jobs`, 'localization-jobs', { size: 20 })).items,
    }),
    [hubId],
  );
  return (
    <Async state={state}>
      {({ publishing, bulk, localization }) => (
        <div class="columns three">
          <Section title="Publishing jobs">
            <JobTable rows={publishing} cols={[['State', (j) => <Badge value={j.state} />], ['Due', (j) => when(j.scheduledDate)], ['Created', (j) => when(j.createdDate)]]} />
          </Section>
          <Section title="Bulk jobs">
            <JobTable rows={bulk} cols={[['Type', (j) => j.jobType], ['Status', (j) => <Badge value={j.status} />], ['Results', (j) => String(j.results?.length ?? 0)]]} />
          </Section>
          <Section title="Localization jobs">
            <JobTable rows={localization} cols={[['Status', (j) => <Badge value={j.status} />], ['Locales', (j) => (j.requestedLocales ?? []).join(', ') || '—'], ['Created', (j) => when(j.createdDate)]]} />
          </Section>
        </div>
      )}
    </Async>
  );
}

function JobTable({ rows, cols }: { rows: any[]; cols: [string, (j: any) => any][] }) {
  if (!rows.length) return <p class="muted">None.</p>;
  return (
    <table>
      <thead>
        <tr>
          {cols.map(([c]) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((j) => (
          <tr key={j.id}>
            {cols.map(([c, f]) => (
              <td key={c}>{f(j)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
