import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { go, href, type Route } from '../router.js';
import { Async, Badge, Crumbs, Field, Pager, Section, useData, when } from '../ui.js';
import { DiffTable, JsonTree, diff } from '../tree.js';

// Content: hubs -> repositories -> folders and items (paged and searched on the server, so a
// repository of 100k items costs one page) -> an item with its body, versions and states.

const PAGE_SIZE = 20;
const idFromLink = (l?: { href: string }) => l?.href.split('/').pop();

export function ContentView({ route }: { route: Route }) {
  const [, kind, id] = route.parts;
  if (kind === 'hub' && id) return <Repositories hubId={id} />;
  if (kind === 'repo' && id) return <Items repoId={id} query={route.query} />;
  if (kind === 'item' && id) return <Item itemId={id} query={route.query} />;
  return <Hubs />;
}

function Hubs() {
  const state = useData(() => api.page('/hubs', 'hubs', { size: 100 }), []);
  return (
    <>
      <h1>Content</h1>
      <Section title="Hubs">
        <Async state={state}>
          {(page) =>
            page.items.length ? (
              <table id="hubs-table">
                <thead>
                  <tr>
                    <th scope="col">Hub</th>
                    <th scope="col">Name</th>
                    <th scope="col">Id</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((h: any) => (
                    <tr key={h.id}>
                      <td>
                        <a href={href(['content', 'hub', h.id])}>{h.label || h.name}</a>
                      </td>
                      <td>{h.name}</td>
                      <td>
                        <code>{h.id}</code>
                      </td>
                      <td>{when(h.createdDate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p>No hubs yet. Create one with <code>cms hub create</code>, or run <code>cms demo</code>.</p>
            )
          }
        </Async>
      </Section>
    </>
  );
}

function Repositories({ hubId }: { hubId: string }) {
  const state = useData(async () => ({ hub: await api.get(`/hubs/${hubId}`), repos: await api.all(`/hubs/${hubId}/content-repositories`, 'content-repositories') }), [hubId]);
  return (
    <Async state={state}>
      {({ hub, repos }) => (
        <>
          <Crumbs items={[['Hubs', href(['content'])], [hub.label || hub.name]]} />
          <h1>{hub.label || hub.name}</h1>
          <Section title="Repositories">
            <table>
              <thead>
                <tr>
                  <th scope="col">Repository</th>
                  <th scope="col">Name</th>
                  <th scope="col">Locales</th>
                  <th scope="col">Features</th>
                </tr>
              </thead>
              <tbody>
                {repos.map((r: any) => (
                  <tr key={r.id}>
                    <td>
                      <a href={href(['content', 'repo', r.id])}>{r.label || r.name}</a>
                    </td>
                    <td>{r.name}</td>
                    <td>{(r.itemLocales ?? []).join(', ') || '—'}</td>
                    <td>{(r.features ?? []).join(', ') || '—'}</td>
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

function Items({ repoId, query }: { repoId: string; query: URLSearchParams }) {
  const folder = query.get('folder') ?? '';
  const q = query.get('q') ?? '';
  const page = Number(query.get('page') ?? 0) || 0;
  const repo = useData(async () => {
    const r = await api.get(`/content-repositories/${repoId}`);
    const hubId = idFromLink(r._links?.hub);
    const hub = hubId ? await api.get(`/hubs/${hubId}`) : null;
    const folders = folder ? await api.all(`/folders/${folder}/folders`, 'folders') : await api.all(`/content-repositories/${repoId}/folders`, 'folders');
    const current = folder ? await api.get(`/folders/${folder}`) : null;
    return { r, hub, folders, current };
  }, [repoId, folder]);
  const items = useData(() => {
    const paging = { page, size: PAGE_SIZE };
    // Text search is the hub's index, narrowed to this repository (and folder) by field terms.
    if (q.trim() && repo.data?.hub) {
      const terms = [q, `contentRepositoryId:${repoId}`, folder ? `folderId:${folder}` : ''].filter(Boolean).join(' ');
      return api.page(`/hubs/${repo.data.hub.id}/content-items/find`, 'content-items', { ...paging, query: terms });
    }
    return api.page(`/content-repositories/${repoId}/content-items`, 'content-items', { ...paging, folderId: folder || undefined, sort: 'createdDate,desc' });
  }, [repoId, folder, q, page, repo.data?.hub?.id]);
  const to = (over: Record<string, string | number | undefined>) => href(['content', 'repo', repoId], { folder, q, page, ...over });
  const [text, setText] = useState(q);
  return (
    <Async state={repo}>
      {({ r, hub, folders, current }) => (
        <>
          <Crumbs items={[['Hubs', href(['content'])], [hub?.label || hub?.name || 'Hub', hub ? href(['content', 'hub', hub.id]) : undefined], [r.label || r.name, current ? to({ folder: undefined, page: 0 }) : undefined], ...(current ? [[current.name] as [string]] : [])]} />
          <h1>
            {r.label || r.name}
            {current ? ` / ${current.name}` : ''}
          </h1>
          <div class="columns">
            <Section title="Folders">
              {folders.length ? (
                <ul class="plain">
                  {folders.map((f: any) => (
                    <li key={f.id}>
                      <a href={to({ folder: f.id, page: 0 })}>📁 {f.name}</a>
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">No {current ? 'subfolders' : 'folders'}.</p>
              )}
            </Section>
            <Section title="Items">
              <form
                role="search"
                class="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  go(to({ q: text, page: 0 }));
                }}
              >
                <Field id="item-search" label="Search items">
                  <input id="item-search" type="search" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} placeholder="words, label:word, -word" />
                </Field>
                <button type="submit">Search</button>
                {q && (
                  <a href={to({ q: undefined, page: 0 })} onClick={() => setText('')}>
                    Clear
                  </a>
                )}
              </form>
              <Async state={items}>
                {(p) => (
                  <>
                    <table id="items-table">
                      <thead>
                        <tr>
                          <th scope="col">Label</th>
                          <th scope="col">Schema</th>
                          <th scope="col">Version</th>
                          <th scope="col">Publishing</th>
                          <th scope="col">Modified</th>
                        </tr>
                      </thead>
                      <tbody>
                        {p.items.map((i: any) => (
                          <tr key={i.id}>
                            <td>
                              <a href={href(['content', 'item', i.id])}>{i.label}</a>
                            </td>
                            <td>{shortSchema(i.body?._meta?.schema ?? i.schemaId)}</td>
                            <td>{i.version}</td>
                            <td>
                              <Badge value={i.publishingStatus} />
                            </td>
                            <td>{when(i.lastModifiedDate)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    {!p.items.length && <p class="muted">{q ? 'Nothing matches.' : 'No items here.'}</p>}
                    <Pager page={p.page} pages={p.pages} total={p.total} to={(n) => to({ page: n })} />
                  </>
                )}
              </Async>
            </Section>
          </div>
        </>
      )}
    </Async>
  );
}

const shortSchema = (uri?: string) => (uri ? uri.replace(/^https?:\/\/[^/]+/, '') : '—');

function Item({ itemId, query }: { itemId: string; query: URLSearchParams }) {
  const state = useData(async () => {
    const item = await api.get(`/content-items/${itemId}`);
    const repo = await api.get(`/content-repositories/${item.contentRepositoryId}`);
    const hubId = idFromLink(repo._links?.hub);
    const schemaUri = item.body?._meta?.schema;
    let schema: any = null;
    if (hubId && schemaUri) {
      const schemas = await api.all(`/hubs/${hubId}/content-type-schemas`, 'content-type-schemas').catch(() => []);
      const found = schemas.find((s: any) => s.schemaId === schemaUri);
      if (found) schema = typeof found.body === 'string' ? JSON.parse(found.body) : found.body;
    }
    const versions = await api.page(`/content-items/${itemId}/versions`, 'content-items', { size: 50 });
    const states = hubId ? await api.all(`/hubs/${hubId}/workflow-states`, 'workflow-states').catch(() => []) : [];
    const hubName: string | null = hubId ? ((await api.get(`/hubs/${hubId}`).catch(() => null)) as { name?: string } | null)?.name ?? null : null;
    return { item, repo, hubId, hubName, schema, versions: versions.items, states };
  }, [itemId]);
  return (
    <Async state={state}>
      {({ item, repo, hubName, schema, versions, states }) => {
        const workflow = states.find((s: any) => s.id === item.workflow?.state);
        const a = Number(query.get('from') ?? Math.max(1, item.version - 1));
        const b = Number(query.get('to') ?? item.version);
        return (
          <>
            <Crumbs items={[['Hubs', href(['content'])], [repo.label || repo.name, href(['content', 'repo', repo.id])], [item.label]]} />
            <h1>{item.label}</h1>
            <dl class="facts" id="item-facts">
              <div>
                <dt>Id</dt>
                <dd>
                  <code>{item.id}</code>
                </dd>
              </div>
              <div>
                <dt>Version</dt>
                <dd>{item.version}</dd>
              </div>
              <div>
                <dt>Schema</dt>
                <dd>{schema?.title ? `${schema.title} (${shortSchema(item.body?._meta?.schema)})` : shortSchema(item.body?._meta?.schema)}</dd>
              </div>
              <div>
                <dt>Delivery key</dt>
                <dd>{item.body?._meta?.deliveryKey ?? item.deliveryKey ?? <span class="muted">none</span>}</dd>
              </div>
              <div>
                <dt>Publishing</dt>
                <dd>
                  <Badge value={item.publishingStatus ?? 'NONE'} /> {item.lastPublishedVersion ? `version ${item.lastPublishedVersion} at ${when(item.lastPublishedDate)}` : ''}
                </dd>
              </div>
              <div>
                <dt>Workflow state</dt>
                <dd>{workflow?.label ?? item.workflow?.state ?? <span class="muted">none</span>}</dd>
              </div>
              <div>
                <dt>Locale</dt>
                <dd>{item.locale ?? '—'}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>
                  <Badge value={item.status} />
                </dd>
              </div>
            </dl>
            <div class="columns">
              <Section title="Body">
                <JsonTree value={item.body} schema={schema} />
              </Section>
              <Versions itemId={item.id} versions={versions} from={a} to={b} />
            </div>
            {hubName ? <Delivered item={item} hubName={hubName} /> : null}
          </>
        );
      }}
    </Async>
  );
}

/**
 * What a site reads of the item (the published version, from Content Delivery 2 at
 * /cdn/{hub}/content/id/{id}: public, no token) next to the latest version staging shows.
 */
function Delivered({ item, hubName }: { item: any; hubName: string }) {
  const state = useData(async () => {
    const res = await fetch(`/cdn/${encodeURIComponent(hubName)}/content/id/${encodeURIComponent(item.id)}?depth=root`, { headers: { accept: 'application/json' } });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`Content Delivery answered ${res.status}`);
    const { content } = (await res.json()) as { content: { _meta?: Record<string, unknown> } };
    // Delivery adds the delivery id to _meta; the rest is the body as published.
    const { deliveryId: _id, ...meta } = content._meta ?? {};
    return { ...content, _meta: meta };
  }, [item.id, item.version, hubName]);
  return (
    <Section title="Published and latest">
      <div id="item-delivery">
        <Async state={state}>
          {(published) =>
            published === null ? (
              <p>
                <strong>Not delivered:</strong> a site reading Content Delivery 2 gets 404 (never published, unpublished or archived). Staging shows the latest version {item.version}.
              </p>
            ) : (
              <>
                <p>
                  <strong>Published version {item.lastPublishedVersion ?? '?'}</strong> is what a site reads; staging shows the latest version {item.version}.{' '}
                  {diff(published, item.body).length ? '' : 'They are the same.'}
                </p>
                {diff(published, item.body).length ? <DiffTable rows={diff(published, item.body)} from="published" to="latest" /> : null}
              </>
            )
          }
        </Async>
      </div>
    </Section>
  );
}

function Versions({ itemId, versions, from, to }: { itemId: string; versions: any[]; from: number; to: number }) {
  const pair = useData(async () => (from && to ? [await api.get(`/content-items/${itemId}/versions/${from}`), await api.get(`/content-items/${itemId}/versions/${to}`)] : null), [itemId, from, to]);
  const pick = (which: 'from' | 'to') => (e: Event) => go(href(['content', 'item', itemId], { from, to, [which]: (e.target as HTMLSelectElement).value }));
  return (
    <Section title="Versions">
      <ol class="plain versions">
        {versions.map((v: any) => (
          <li key={v.version}>
            <strong>v{v.version}</strong> {when(v.lastModifiedDate)} <span class="muted">{v.lastModifiedBy}</span>
          </li>
        ))}
      </ol>
      <div class="row">
        <Field id="diff-from" label="Compare version">
          <select id="diff-from" value={String(from)} onChange={pick('from')}>
            {versions.map((v: any) => (
              <option key={v.version} value={v.version}>
                {v.version}
              </option>
            ))}
          </select>
        </Field>
        <Field id="diff-to" label="with version">
          <select id="diff-to" value={String(to)} onChange={pick('to')}>
            {versions.map((v: any) => (
              <option key={v.version} value={v.version}>
                {v.version}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Async state={pair}>{(p) => (p ? <DiffTable rows={diff(p[0].body, p[1].body)} from={`v${from}`} to={`v${to}`} /> : <p class="muted">Choose two versions.</p>)}</Async>
    </Section>
  );
}
