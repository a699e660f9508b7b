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

/**
 * Matches method + path against the route table. Static segments win over parameters, so
 * `/content-type-schemas/:id/archive` is preferred to `/content-type-schemas/:id/:version`.
 */
export class Router {
  private readonly bySize = new Map<number, Compiled[]>();

  constructor(routes: readonly RouteDef[]) {
    for (const route of routes) {
      const segments = split(route.path);
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
    return { allowed: [...allowed] };
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
