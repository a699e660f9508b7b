import { describe, expect, it } from 'vitest';
import { classify, destinationProblem, literalKind, parseAllowRule, plainAddress } from '../../src/server/webhooks/destinations.js';

// Issue 32.2: every spelling of an address is classified as the address it is.

describe('webhook destinations', () => {
  it('classifies loopback, private, link-local and the IPv6 forms that embed an IPv4 address', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.1.2', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
      ['[::ffff:7f00:1]', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['::ffff:a9fe:a9fe', 'link-local'],
      ['fe80::1', 'link-local'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fc00::1', 'private'],
      ['fd12:3456::1', 'private'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['::7f00:1', 'reserved'],
      ['64:ff9b::a9fe:a9fe', 'reserved'],
      ['2002:7f00:1::1', 'reserved'],
      ['2001:0:4136:e378::1', 'reserved'],
      ['224.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['not an address', 'reserved'],
      ['8.8.8.8', 'public'],
      ['172.32.0.1', 'public'],
      ['2606:4700:4700::1111', 'public'],
    ];
    for (const [address, kind] of cases) expect(classify(address), address).toBe(kind);
    expect(plainAddress('[::FFFF:127.0.0.1]')).toBe('127.0.0.1');
  });

  it('URL spellings reach the check as the address they are', () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001', 'localhost', '[::ffff:127.0.0.1]']) {
      expect(literalKind(new URL(`http://${host}:8080/x`)), host).toBe('loopback');
    }
    for (const host of ['2852039166', '0251.0376.0251.0376', '0xa9.0xfe.0xa9.0xfe', '[::ffff:169.254.169.254]']) {
      expect(literalKind(new URL(`http://${host}/`)), host).toBe('link-local');
    }
    expect(literalKind(new URL('http://example.com/'))).toBeNull();
  });

  it('loopback for the trusted writer only; the rest only when the user lists it', () => {
    const none = { allow: [], trustedWriter: false };
    const trusted = { allow: [], trustedWriter: true };
    expect(destinationProblem(none, 'example.com', '93.184.215.14')).toBeNull();
    expect(destinationProblem(none, 'localhost', '127.0.0.1')).toMatch(/loopback/);
    expect(destinationProblem(trusted, 'localhost', '::1')).toBeNull();
    expect(destinationProblem(trusted, 'metadata', '169.254.169.254')).toMatch(/link-local/);
    const listed = { allow: ['10.0.0.0/8', 'build.internal', 'fd00::/8'].map(parseAllowRule), trustedWriter: false };
    expect(destinationProblem(listed, 'x', '10.9.8.7')).toBeNull();
    expect(destinationProblem(listed, 'x', '::ffff:10.9.8.7')).toBeNull();
    expect(destinationProblem(listed, 'build.internal', '192.168.1.1')).toBeNull();
    expect(destinationProblem(listed, 'x', 'fd00::5')).toBeNull();
    expect(destinationProblem(listed, 'x', '192.168.1.1')).toMatch(/private/);
    expect(destinationProblem({ allow: [parseAllowRule('*')], trustedWriter: false }, 'x', '169.254.169.254')).toBeNull();
    for (const bad of ['10.0.0.0/33', 'a b', 'http://x', '::1/200', '']) expect(() => parseAllowRule(bad), bad).toThrow();
  });
});
