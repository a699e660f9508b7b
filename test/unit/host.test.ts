import { describe, expect, it } from 'vitest';
import { HostCheck, parseAllowHost, parseHost } from '../../src/server/core/host.js';
import { ServiceError } from '../../src/server/core/errors.js';

describe('parseHost: one host[:port], nothing else', () => {
  it.each([
    ['localhost', 'localhost', null],
    ['LocalHost:8787', 'localhost', 8787],
    ['localhost.', 'localhost', null],
    ['127.0.0.1:1', '127.0.0.1', 1],
    ['[::1]:65535', '[::1]', 65535],
    ['[0:0:0:0:0:0:0:1]', '[::1]', null],
    ['my_host-1.example.test', 'my_host-1.example.test', null],
  ])('%s', (value, name, port) => {
    expect(parseHost(value)).toEqual({ name, port });
  });

  it.each(['', 'a b', '[', '[::1', '[zz]', 'x:0', 'x:65536', 'x:', ':1', '%', 'a/b', 'a?b', 'a#b', 'a@b', 'a..b', '.', '-', '-a', 'é', '999.1.1.1', '1.2.3.4.5', 'x'.repeat(300)])('%j is not one', (value) => {
    expect(parseHost(value)).toBeNull();
  });
});

describe('HostCheck', () => {
  const url = (check: HostCheck, target: string, hosts: string[]) => {
    try {
      return check.requestUrl(target, hosts);
    } catch (err) {
      expect(err).toBeInstanceOf(ServiceError);
      return (err as ServiceError).entries[0]!.code;
    }
  };

  it('takes the path from the target and the origin from the Host', () => {
    const check = new HostCheck();
    expect(url(check, '/a/b?c=d', ['localhost:9'])).toBe('http://localhost:9/a/b?c=d');
    expect(url(check, '//evil.example/x', ['127.0.0.1'])).toBe('http://127.0.0.1//evil.example/x');
    expect(url(check, '/\\evil.example/x', ['127.0.0.1'])).toBe('http://127.0.0.1//evil.example/x');
    expect(url(check, 'http://evil.example/x', ['127.0.0.1'])).toBe('INVALID_REQUEST_TARGET');
    expect(url(check, '*', ['127.0.0.1'])).toBe('INVALID_REQUEST_TARGET');
    expect(url(check, '/x', [])).toBe('INVALID_HOST');
    expect(url(check, '/x', ['localhost', 'localhost'])).toBe('INVALID_HOST');
    expect(url(check, '/x', ['x/__sandbox/reset?'])).toBe('INVALID_HOST');
    expect(url(check, '/x', ['evil.example'])).toBe('HOST_NOT_ALLOWED');
  });

  it('serves loopback, the bound address, staging hostnames and --allow-host rules', () => {
    const check = new HostCheck({ bind: 'box.lan', allow: ['a.test', 'b.test:81', '.c.test'], isStagingHost: (n) => n === 'vse.test' });
    const allows = (h: string) => check.allows(parseHost(h)!);
    for (const h of ['localhost', 'app.localhost', '127.9.9.9', '[::1]', 'box.lan:1', 'a.test:5', 'b.test:81', 'c.test', 'x.c.test', 'vse.test']) expect(allows(h), h).toBe(true);
    for (const h of ['b.test', 'b.test:80', 'xc.test', 'evil.example', '10.0.0.1', '[::2]', 'localhost.evil']) expect(allows(h), h).toBe(false);
    expect(new HostCheck({ allow: ['*'] }).allows(parseHost('anything.example')!)).toBe(true);
  });

  it('says what a Host reaches: everything for loopback, --host and --allow-host names; the staging routes only for a staging name', () => {
    const check = new HostCheck({ allow: ['api.test'], isStagingHost: (n) => n === 'vse.test' || n === 'localhost' || n === 'api.test' });
    for (let i = 0; i < 2; i++) {
      expect(check.admit('/a', ['vse.test:8787']).reach).toBe('staging');
      expect(check.admit('/a', ['VSE.test']).reach).toBe('staging');
      // A name allowed whatever the data says keeps its full reach even when a hub also names it.
      expect(check.admit('/a', ['localhost']).reach).toBe('all');
      expect(check.admit('/a', ['api.test']).reach).toBe('all');
      expect(check.admit('/a', ['127.0.0.1:1']).reach).toBe('all');
    }
  });

  it('answers a repeated Host the same way, and asks again about staging hostnames every time', () => {
    let staging = true;
    const check = new HostCheck({ isStagingHost: (n) => staging && n === 'vse.test' });
    for (let i = 0; i < 3; i++) {
      expect(url(check, `/a?i=${i}`, ['localhost:9'])).toBe(`http://localhost:9/a?i=${i}`);
      expect(url(check, '/a', [' LocalHost:9 '])).toBe('http://localhost:9/a');
      expect(url(check, '/a', ['evil.example'])).toBe('HOST_NOT_ALLOWED');
      expect(url(check, '/a', ['bad host'])).toBe('INVALID_HOST');
      expect(url(check, '/a', ['vse.test'])).toBe('http://vse.test/a');
    }
    // The hub no longer declares it: refused on the next request.
    staging = false;
    expect(url(check, '/a', ['vse.test'])).toBe('HOST_NOT_ALLOWED');
    // Many distinct Host values still get each its own answer.
    for (let i = 0; i < 200; i++) expect(url(check, '/', [`x${i}.localhost`])).toBe(`http://x${i}.localhost/`);
    expect(url(check, '/', ['localhost:9'])).toBe('http://localhost:9/');
  });

  it('an --allow-host that is not a name, name:port, .domain or * is refused', () => {
    for (const bad of ['', 'a b', 'x:0', '.', '.a:80', 'http://x', '*.x']) expect(() => parseAllowHost(bad), bad).toThrow();
  });
});
