import type { RouteDef } from './route-table.js';

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

interface Compiled {
  route: RouteDef;
  segments: string[];
  specificity: string;
}

/** At most this many segments for a rest parameter (`*key`): a delivery key has at most 150 characters. */
const MAX_REST_SEGMENTS = 75;

/**
 * Matches method + path against the route table. Static segments win over parameters, so
 * `/content-type-schemas/:id/archive` is preferred to `/content-type-schemas/:id/:version`.
 * A last segment `*name` takes the rest of the path (one or more segments, joined by `/`): it is
 * tried only when no route of the path's exact length matches.
 */
export class Router {
  private readonly bySize = new Map<number, Compiled[]>();
  private readonly rest: Compiled[] = [];

  constructor(routes: readonly RouteDef[]) {
    for (const route of routes) {
      const segments = split(route.path);
      if (segments.at(-1)?.startsWith('*')) {
        this.rest.push({ route, segments, specificity: '' });
        continue;
      }
      const specificity = segments.map((s) => (s.startsWith(':') ? '0' : '1')).join('');
      const list = this.bySize.get(segments.length) ?? [];
      list.push({ route, segments, specificity });
      this.bySize.set(segments.length, list);
    }
    for (const list of this.bySize.values()) list.sort((a, b) => (a.specificity < b.specificity ? 1 : a.specificity > b.specificity ? -1 : 0));
  }

  /** The matching route, or the methods the path allows (empty when the path is unknown). */
  match(method: string, pathname: string): RouteMatch | { allowed: string[] } {
    const parts = split(pathname);
    const candidates = this.bySize.get(parts.length) ?? [];
    const allowed = new Set<string>();
    let bestSpecificity: string | null = null;
    for (const c of candidates) {
      if (bestSpecificity !== null && c.specificity !== bestSpecificity) break;
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      bestSpecificity ??= c.specificity;
      if (c.route.method === method) return { route: c.route, params };
      allowed.add(c.route.method);
    }
    if (bestSpecificity === null) {
      for (const c of this.rest) {
        const fixed = c.segments.length - 1;
        if (parts.length <= fixed || parts.length - fixed > MAX_REST_SEGMENTS) continue;
        const params = matchSegments(c.segments.slice(0, fixed), parts.slice(0, fixed));
        if (!params) continue;
        const rest = parts.slice(fixed).map(decodeSegment);
        if (rest.includes(null)) continue;
        params[c.segments[fixed]!.slice(1)] = rest.join('/');
        if (c.route.method === method) return { route: c.route, params };
        allowed.add(c.route.method);
      }
    }
    return { allowed: [...allowed] };
  }
}

function decodeSegment(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(parts[i]!);
      } catch {
        return null;
      }
    } else if (p !== parts[i]) return null;
  }
  return params;
}
