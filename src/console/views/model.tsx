import { api } from '../api.js';
import { href, type Route } from '../router.js';
import { Async, Badge, Crumbs, HubPicker, Section, useData, useHub, when } from '../ui.js';
import { JsonTree } from '../tree.js';

// Content model: schemas (documents and versions), content types, and which repositories each
// type is assigned to.

export function ModelView({ route }: { route: Route }) {
  const { hubId, error } = useHub(route.query.get('hub'));
  if (route.parts[1] === 'schema' && route.parts[2] && hubId) return <Schema hubId={hubId} schemaId={route.parts[2]} version={route.query.get('version')} />;
  return (
    <>
      <div class="view-head">
        <h1>Content model</h1>
        <HubPicker view="model" hubId={hubId} />
      </div>
      {error && <p class="error">{error.message}</p>}
      {hubId && <Model hubId={hubId} />}
    </>
  );
}

function Model({ hubId }: { hubId: string }) {
  const state = useData(
    async () => ({
      schemas: await api.all(`/hubs/${hubId}/content-type-schemas`, 'content-type-schemas'),
      types: await api.all(`/hubs/${hubId}/content-types`, 'content-types'),
      repos: await api.all(`/hubs/${hubId}/content-repositories`, 'content-repositories'),
    }),
    [hubId],
  );
  return (
    <Async state={state}>
      {({ schemas, types, repos }) => (
        <>
          <Section title="Schemas">
            <table id="schemas-table">
              <thead>
                <tr>
                  <th scope="col">Schema</th>
                  <th scope="col">Title</th>
                  <th scope="col">Version</th>
                  <th scope="col">Validation</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {schemas.map((s: any) => (
                  <tr key={s.id}>
                    <td>
                      <a href={href(['model', 'schema', s.id], { hub: hubId })}>{s.schemaId}</a>
                    </td>
                    <td>{titleOf(s.body)}</td>
                    <td>{s.version}</td>
                    <td>{s.validationLevel}</td>
                    <td>
                      <Badge value={s.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <Section title="Content types and assignments">
            <table>
              <thead>
                <tr>
                  <th scope="col">Content type</th>
                  <th scope="col">Schema</th>
                  <th scope="col">Assigned to</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {types.map((t: any) => (
                  <tr key={t.id}>
                    <td>{t.settings?.label ?? t.id}</td>
                    <td>
                      <code>{t.contentTypeUri}</code>
                    </td>
                    <td>
                      {repos
                        .filter((r: any) => (r.contentTypes ?? []).some((a: any) => a.hubContentTypeId === t.id || a.contentTypeUri === t.contentTypeUri))
                        .map((r: any) => r.label || r.name)
                        .join(', ') || <span class="muted">no repository</span>}
                    </td>
                    <td>
                      <Badge value={t.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        </>
      )}
    </Async>
  );
}

const parse = (body: unknown) => {
  try {
    return typeof body === 'string' ? JSON.parse(body) : body;
  } catch {
    return body;
  }
};
const titleOf = (body: unknown) => (parse(body) as { title?: string })?.title ?? '—';

function Schema({ hubId, schemaId, version }: { hubId: string; schemaId: string; version: string | null }) {
  const state = useData(async () => {
    const latest = await api.get(`/content-type-schemas/${schemaId}`);
    const shown = version && Number(version) !== latest.version ? await api.get(`/content-type-schemas/${schemaId}/${version}`) : latest;
    const history = await api.page(`/content-type-schemas/${schemaId}/history`, 'history', { size: 50 }).catch(() => null);
    return { latest, shown, history };
  }, [schemaId, version]);
  return (
    <Async state={state}>
      {({ latest, shown, history }) => (
        <>
          <Crumbs items={[['Content model', href(['model'], { hub: hubId })], [latest.schemaId]]} />
          <h1>{titleOf(latest.body)}</h1>
          <div class="columns">
            <Section title={`Document, version ${shown.version}`}>
              <JsonTree value={parse(shown.body)} />
            </Section>
            <Section title="Versions">
              <ol class="plain versions">
                {Array.from({ length: latest.version }, (_, i) => latest.version - i).map((v) => {
                  const h = history?.items.find((x: any) => x.version === v);
                  return (
                    <li key={v}>
                      <a href={href(['model', 'schema', schemaId], { hub: hubId, version: v })} aria-current={v === shown.version ? 'true' : undefined}>
                        Version {v}
                      </a>{' '}
                      {h && <span class="muted">{when(h.createdDate ?? h.date)}</span>}
                    </li>
                  );
                })}
              </ol>
            </Section>
          </div>
        </>
      )}
    </Async>
  );
}
