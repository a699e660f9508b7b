// Readable renderings of JSON: a tree with the schema's titles, and a diff of two documents.

import { api } from './api.js';
import { href } from './router.js';
import { useData } from './ui.js';

type Json = unknown;

/** A content link or reference (`{_meta: {schema: …/content-link}, contentType, id}`): shown as a link to the item, not as three nested rows. */
function asContentLink(value: Json): { id: string; contentType: string; kind: string } | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, any>;
  const schema = typeof v._meta?.schema === 'string' ? v._meta.schema : '';
  const kind = /content-reference$/.test(schema) ? 'reference' : /content-link$/.test(schema) ? 'link' : null;
  if (!kind || typeof v.id !== 'string' || typeof v.contentType !== 'string') return null;
  return { id: v.id, contentType: v.contentType, kind };
}

/** The last part of a type URI, which is what tells types apart (https://…/demo/article.json -> article.json). */
const shortType = (uri: string) => uri.replace(/^[a-z]+:\/\/[^/]+\//i, '');

function ContentLink({ link }: { link: { id: string; contentType: string; kind: string } }) {
  // The linked item's label when it can be read (a slot's link may name a snapshot: then the id).
  const id = encodeURIComponent(link.id);
  const state = useData(() => api.get<{ label?: string }>(`/content-items/${id}`).catch(() => null), [link.id]);
  return (
    <span class="content-link">
      <span aria-hidden="true">→ </span>
      <a href={href(['content', 'item', link.id])} title={link.id}>
        {state.data?.label ?? link.id}
      </a>{' '}
      <span class="muted">
        ({link.kind} to {shortType(link.contentType)})
      </span>
    </span>
  );
}

/** Property titles of a schema (its `properties`, and those of `allOf` parts), by property name. */
export function titlesOf(schema: any): Record<string, any> {
  const out: Record<string, any> = {};
  const visit = (s: any) => {
    if (!s || typeof s !== 'object') return;
    for (const [k, v] of Object.entries<any>(s.properties ?? {})) out[k] = v;
    for (const part of s.allOf ?? []) visit(part);
  };
  visit(schema);
  return out;
}

/** A JSON value as nested definition lists; `schema` gives labels (title, else the name). */
export function JsonTree({ value, schema }: { value: Json; schema?: any }) {
  const link = asContentLink(value);
  if (link) return <ContentLink link={link} />;
  if (value === null || typeof value !== 'object') return <span class={`v v-${value === null ? 'null' : typeof value}`}>{scalar(value)}</span>;
  if (Array.isArray(value)) {
    if (!value.length) return <span class="muted">(empty list)</span>;
    return (
      <ol class="tree-list">
        {value.map((v, i) => (
          <li key={i}>
            <JsonTree value={v} schema={schema?.items} />
          </li>
        ))}
      </ol>
    );
  }
  const props = titlesOf(schema);
  const entries = Object.entries(value as Record<string, Json>);
  if (!entries.length) return <span class="muted">(empty)</span>;
  return (
    <dl class="tree">
      {entries.map(([k, v]) => (
        <div key={k} class="tree-row">
          <dt title={k}>
            {props[k]?.title ?? k}
            {props[k]?.title && props[k].title !== k ? <span class="muted"> ({k})</span> : null}
          </dt>
          <dd>
            <JsonTree value={v} schema={props[k]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

const scalar = (v: Json) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Leaves of a document by JSON path: {'title': 'x', 'tags[0]': 'news'}. */
export function flatten(value: Json, path = '', out: Record<string, string> = {}): Record<string, string> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [path ? `.${k}` : k, v] as const);
    if (!entries.length) out[path] = Array.isArray(value) ? '[]' : '{}';
    for (const [k, v] of entries) flatten(v, `${path}${k}`, out);
  } else out[path] = JSON.stringify(value);
  return out;
}

export interface DiffRow {
  path: string;
  before?: string;
  after?: string;
}

/** What changed between two documents, leaf by leaf. */
export function diff(a: Json, b: Json): DiffRow[] {
  const x = flatten(a);
  const y = flatten(b);
  const paths = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
  return paths.filter((p) => x[p] !== y[p]).map((p) => ({ path: p, before: x[p], after: y[p] }));
}

export function DiffTable({ rows, from, to }: { rows: DiffRow[]; from: string; to: string }) {
  if (!rows.length) return <p class="muted">No differences.</p>;
  return (
    <table class="diff">
      <caption class="sr-only">
        Changes from {from} to {to}
      </caption>
      <thead>
        <tr>
          <th scope="col">Property</th>
          <th scope="col">{from}</th>
          <th scope="col">{to}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.path} class={r.before === undefined ? 'added' : r.after === undefined ? 'removed' : 'changed'}>
            <th scope="row">
              <code>{r.path}</code>
            </th>
            <td>{r.before === undefined ? <span class="muted">(absent)</span> : <del>{r.before}</del>}</td>
            <td>{r.after === undefined ? <span class="muted">(absent)</span> : <ins>{r.after}</ins>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
