import { describe, expect, it } from 'vitest';
import { Router } from '../../src/server/core/router.js';
import { routes, type RouteDef } from '../../src/server/core/route-table.js';

const r = (method: RouteDef['method'], path: string, op: string): RouteDef => ({ method, path, op });

describe('Router', () => {
  const router = new Router([
    r('GET', '/s/:id', 'get'),
    r('GET', '/s/:id/:version', 'version'),
    r('POST', '/s/:id/archive', 'archive'),
    r('PATCH', '/s/:id', 'update'),
  ]);

  it('extracts and decodes parameters', () => {
    expect(router.match('GET', '/s/a%20b')).toMatchObject({ route: { op: 'get' }, params: { id: 'a b' } });
  });

  it('prefers static segments over parameters', () => {
    expect(router.match('POST', '/s/x/archive')).toMatchObject({ route: { op: 'archive' } });
    expect(router.match('GET', '/s/x/3')).toMatchObject({ route: { op: 'version' }, params: { id: 'x', version: '3' } });
  });

  it('reports the allowed methods of a known path, and none for an unknown one', () => {
    expect(router.match('DELETE', '/s/x')).toEqual({ allowed: ['GET', 'PATCH'] });
    expect(router.match('GET', '/t/x')).toEqual({ allowed: [] });
  });

  it('a rest parameter (*key) takes one or more segments, only when no exact route matches, and at most 75', () => {
    const rest = new Router([r('GET', '/c/key/*key', 'byKey'), r('GET', '/c/key/exact/:x', 'exact'), r('POST', '/c/key/*key', 'post')]);
    expect(rest.match('GET', '/c/key/pages/home')).toMatchObject({ route: { op: 'byKey' }, params: { key: 'pages/home' } });
    expect(rest.match('GET', '/c/key/one')).toMatchObject({ params: { key: 'one' } });
    expect(rest.match('GET', '/c/key/a%20b/c')).toMatchObject({ params: { key: 'a b/c' } });
    expect(rest.match('GET', '/c/key/exact/1')).toMatchObject({ route: { op: 'exact' } });
    expect(rest.match('GET', '/c/key')).toEqual({ allowed: [] });
    expect(rest.match('GET', `/c/key/${Array(76).fill('a').join('/')}`)).toEqual({ allowed: [] });
    expect(rest.match('GET', `/c/key/${Array(75).fill('a').join('/')}`)).toMatchObject({ route: { op: 'byKey' } });
    expect(rest.match('DELETE', '/c/key/a/b')).toEqual({ allowed: ['GET', 'POST'] });
    expect(rest.match('GET', '/c/key/%E0%A4%A/b')).toEqual({ allowed: [] });
  });

  it('ignores empty segments and trailing slashes', () => {
    expect(router.match('GET', '/s/x/')).toMatchObject({ route: { op: 'get' } });
  });

  it('the real route table has unique method+path pairs and existing body schema names', () => {
    const seen = new Set<string>();
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      expect(route.op).toMatch(/^[a-zA-Z]+\.[a-zA-Z0-9]+$/);
    }
  });
});
