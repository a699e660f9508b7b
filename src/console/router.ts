import { useEffect, useState } from 'preact/hooks';

// Hash routes (#/content/repo/<id>?q=…): each view has a URL of its own, so deep links, reloads
// (after signing in again) and the back button work without any server-side routing.

export interface Route {
  /** Path segments after '#/': ['content', 'repo', '<id>']. */
  parts: string[];
  query: URLSearchParams;
}

export function parseHash(hash = location.hash): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', qs = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(qs) };
}

export function href(parts: (string | undefined)[], query: Record<string, string | number | undefined | null> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `#/${parts.filter((p): p is string => !!p).map(encodeURIComponent).join('/')}${s ? `?${s}` : ''}`;
}

export function go(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else location.hash = to.slice(1);
  if (replace) dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parseHash);
  useEffect(() => {
    const on = () => setRoute(parseHash());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
