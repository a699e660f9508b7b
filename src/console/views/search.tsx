import { useEffect, useRef, useState } from 'preact/hooks';
import { BarController, BarElement, CategoryScale, Chart, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import { api } from '../api.js';
import { href, type Route } from '../router.js';
import { Async, Field, HubPicker, Section, useData, useHub } from '../ui.js';

// Search: a query playground per index (the sandbox's query API, with a bearer token) and the
// index's analytics reports as charts, each with its figures as a table too.

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip);

export function SearchView({ route }: { route: Route }) {
  const { hubId, error } = useHub(route.query.get('hub'));
  const state = useData(async () => (hubId ? api.all(`/hubs/${hubId}/search-indexes`, 'indexes') : []), [hubId]);
  const indexId = route.parts[1] === 'index' ? route.parts[2] : undefined;
  return (
    <>
      <div class="view-head">
        <h1>Search</h1>
        <HubPicker view="search" hubId={hubId} />
      </div>
      {error && <p class="error">{error.message}</p>}
      <Async state={state}>
        {(indexes) => {
          const current = indexes.find((i: any) => i.id === indexId) ?? indexes[0];
          if (!current) return <p class="muted">No search indexes in this hub.</p>;
          return (
            <>
              <nav aria-label="Indexes" class="tabs-list">
                <ul class="plain inline-list">
                  {indexes.map((i: any) => (
                    <li key={i.id}>
                      <a href={href(['search', 'index', i.id], { hub: hubId })} aria-current={i.id === current.id ? 'page' : undefined}>
                        {i.label || i.name}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <div class="columns">
                <Playground key={current.id} index={current} />
                <Analytics key={`a-${current.id}`} hubId={hubId!} index={current} />
              </div>
            </>
          );
        }}
      </Async>
    </>
  );
}

function Playground({ index }: { index: any }) {
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<any>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setAnswer(await api.post(`/__sandbox/search-indexes/${index.id}/query`, { query: text, hitsPerPage: 20, analyticsTags: ['console'] }));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Section title={`Query ${index.name}`}>
      <form role="search" class="row" onSubmit={run}>
        <Field id="index-query" label="Query">
          <input id="index-query" type="search" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {answer && (
        <div id="query-answer" aria-live="polite">
          <p>
            {answer.nbHits} hit{answer.nbHits === 1 ? '' : 's'} in {answer.processingTimeMS ?? 0} ms
          </p>
          <ol class="hits">
            {answer.hits.map((h: any) => (
              <li key={h.objectID}>
                <strong>{h.title ?? h.label ?? h.objectID}</strong> <span class="muted">{h.objectID}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </Section>
  );
}

function Analytics({ hubId, index }: { hubId: string; index: any }) {
  const state = useData(
    async () => ({
      top: (await api.get(`/hubs/${hubId}/search-indexes/${index.id}/analytics/top-searches`))._embedded?.['top-searches'] ?? [],
      count: await api.get(`/hubs/${hubId}/search-indexes/${index.id}/analytics/searches-count`),
      noResults: await api.get(`/hubs/${hubId}/search-indexes/${index.id}/analytics/no-results-rate`),
    }),
    [hubId, index.id],
  );
  return (
    <Section title="Analytics (last 7 days)">
      <Async state={state}>
        {({ top, count, noResults }) => (
          <>
            <ChartFigure title="Top searches" type="bar" labels={top.map((t: any) => t.search || '(empty)')} values={top.map((t: any) => t.count)} />
            <ChartFigure title={`Searches per day (${count.count} in all)`} type="line" labels={(count.dates ?? []).map((d: any) => d.date)} values={(count.dates ?? []).map((d: any) => d.count)} />
            <ChartFigure title="No-result rate per day" type="line" labels={(noResults.dates ?? []).map((d: any) => d.date)} values={(noResults.dates ?? []).map((d: any) => (d.rate === null ? 0 : Math.round(d.rate * 100)))} unit="%" />
          </>
        )}
      </Async>
    </Section>
  );
}

function ChartFigure({ title, type, labels, values, unit = '' }: { title: string; type: 'bar' | 'line'; labels: string[]; values: number[]; unit?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type,
      data: { labels, datasets: [{ label: title, data: values, backgroundColor: '#2b6cb0', borderColor: '#2b6cb0' }] },
      options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
    return () => chart.destroy();
  }, [type, labels.join('|'), values.join('|')]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`${title}: ${labels.map((l, i) => `${l} ${values[i]}${unit}`).join(', ') || 'no data'}`} />
      </div>
      <details>
        <summary>Figures</summary>
        <table>
          <tbody>
            {labels.map((l, i) => (
              <tr key={l + i}>
                <th scope="row">{l}</th>
                <td>
                  {values[i]}
                  {unit}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
