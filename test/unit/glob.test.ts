import { describe, it, expect } from 'vitest';
import { glob } from '../../src/server/core/glob.js';

// Path globs, one matcher for the request journal and fault rules: `*` within a segment, `**`
// across, `?` one character (fault rules: `?` itself); matched in linear time.

describe('glob', () => {
  const m = (pattern: string, path: string) => glob(pattern).matches(path);

  it('matches segments, spans and single characters', () => {
    expect(m('/v2/content/hubs/*', '/v2/content/hubs/abc')).toBe(true);
    expect(m('/v2/content/hubs/*', '/v2/content/hubs/abc/x')).toBe(false);
    expect(m('/v2/content/hubs/*', '/v2/content/hubs/')).toBe(true);
    expect(m('/v2/**', '/v2/content/hubs/abc/x')).toBe(true);
    expect(m('/v2/**/x', '/v2/x')).toBe(false);
    expect(m('/v2/**x', '/v2/x')).toBe(true);
    expect(m('/hub?', '/hubs')).toBe(true);
    expect(m('/hub?', '/hub/')).toBe(false);
    expect(m('/a*b*c', '/aXXbYYc')).toBe(true);
    expect(m('/a*b*c', '/aXXbYYd')).toBe(false);
    expect(m('/a.b', '/aXb')).toBe(false);
    expect(m('/(x)+', '/(x)+')).toBe(true);
    expect(m('/***', '/a/b')).toBe(true);
    expect(m('', '')).toBe(true);
    expect(m('', '/')).toBe(false);
  });

  it('takes linear time on globs that make a backtracking matcher explode', () => {
    const path = `/${'a'.repeat(20_000)}`;
    const started = performance.now();
    expect(m(`/${'*a'.repeat(100)}b`, path)).toBe(false);
    expect(m(`/${'**a'.repeat(100)}b`, path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads `?` as itself when asked (fault rules take `*` and `**` only), and compiles each reading once', () => {
    const literal = (pattern: string, path: string) => glob(pattern, { questionMark: false }).matches(path);
    expect(literal('/hub?', '/hubs')).toBe(false);
    expect(literal('/hub?', '/hub?')).toBe(true);
    expect(literal('/a?*/**', '/a?x/y/z')).toBe(true);
    expect(m('/hub?', '/hubs')).toBe(true);
    expect(glob('/x?', { questionMark: false })).toBe(glob('/x?', { questionMark: false }));
    expect(glob('/x?', { questionMark: false })).not.toBe(glob('/x?'));
  });

  it('refuses a glob longer than the bound', () => {
    expect(() => glob(`/${'a'.repeat(5000)}`)).toThrow(/at most/);
  });
});
