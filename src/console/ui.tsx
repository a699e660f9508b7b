import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type Page } from './api.js';
import { href } from './router.js';

/** Loads data for a view; reloads when `deps` change or `reload()` is called. */
export function useData<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: Error; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { ...state, reload };
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status">
      {what}…
    </p>
  );
}

export function Failure({ error }: { error: Error }) {
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

/** Shows loading, an error, or the content once data is there. */
export function Async<T>({ state, children }: { state: { data?: T; error?: Error; loading: boolean }; children: (data: T) => ComponentChildren }) {
  if (state.error) return <Failure error={state.error} />;
  if (state.data === undefined) return <Loading />;
  return <>{children(state.data)}</>;
}

/** A titled panel; `wide` spans every column of a .columns grid (a table that needs the room). */
export function Section({ title, children, actions, wide }: { title: string; children: ComponentChildren; actions?: ComponentChildren; wide?: boolean }) {
  return (
    <section class={wide ? 'panel wide' : 'panel'} aria-label={title}>
      <header class="panel-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

export function Crumbs({ items }: { items: [string, string?][] }) {
  return (
    <nav aria-label="Breadcrumb" class="crumbs">
      <ol>
        {items.map(([label, to], i) => (
          <li key={i}>{to ? <a href={to}>{label}</a> : <span aria-current="page">{label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}

/** Previous / next for a server-side page; the page number lives in the URL. */
export function Pager({ page, pages, total, to }: { page: number; pages: number; total: number; to: (page: number) => string }) {
  return (
    <nav class="pager" aria-label="Pages">
      {page > 0 ? <a href={to(page - 1)}>← Previous</a> : <span class="muted">← Previous</span>}
      <span>
        Page {page + 1} of {Math.max(pages, 1)} ({total} in all)
      </span>
      {page + 1 < pages ? <a href={to(page + 1)}>Next →</a> : <span class="muted">Next →</span>}
    </nav>
  );
}

export function Badge({ value }: { value: string | null | undefined }) {
  if (!value) return null;
  return <span class={`badge badge-${value.toLowerCase().replace(/[^a-z]+/g, '-')}`}>{value}</span>;
}

export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '—');

/** A labelled field with a fixed id, so every input has a visible label. */
export function Field({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

/** The hubs the signed-in client can see, for the hub pickers of the views. */
let hubsOnce: Promise<{ id: string; name: string; label: string }[]> | null = null;
export const hubs = () => (hubsOnce ??= api.all('/hubs', 'hubs'));
export const forgetHubs = () => {
  hubsOnce = null;
};

/** A hub picker that keeps the choice in the URL (`?hub=`). */
export function HubPicker({ view, hubId }: { view: string; hubId?: string }) {
  const state = useData(hubs, []);
  return (
    <Async state={state}>
      {(list) => (
        <div class="field inline">
          <label for="hub-picker">Hub</label>
          <select id="hub-picker" value={hubId ?? ''} onChange={(e) => (location.hash = href([view], { hub: (e.target as HTMLSelectElement).value }).slice(1))}>
            <option value="" disabled>
              Choose a hub
            </option>
            {list.map((h) => (
              <option key={h.id} value={h.id}>
                {h.label || h.name} ({h.name})
              </option>
            ))}
          </select>
        </div>
      )}
    </Async>
  );
}

/** The hub a hub-scoped view shows: `?hub=`, else the first hub. */
export function useHub(hubId: string | null): { hubId?: string; error?: Error } {
  const state = useData(async () => hubId ?? (await hubs())[0]?.id ?? null, [hubId]);
  return { hubId: state.data ?? undefined, error: state.error };
}

export type { Page };
