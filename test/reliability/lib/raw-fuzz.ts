import fc from 'fast-check';
import type { RouteDef } from '../../../src/server/core/route-table.js';
import { HostCheck, parseHost } from '../../../src/server/core/host.js';
import type { World } from './world.js';

// Requests that fetch cannot send, for the raw-socket part of the fuzzer: hostile Host headers,
// request targets (absolute-form, *, dot segments, percent-encoding, very long, control bytes),
// message framing (Content-Length and Transfer-Encoding, alone, repeated, conflicting, wrong)
// and Content-Types, each over many routes. Cases are plain data drawn from the seed.

export interface RawCase {
  kind: 'host' | 'target' | 'framing' | 'content-type';
  /** What the case is, for the report. */
  what: string;
  method: string;
  target: string;
  headers: [string, string][];
  body?: string;
  /** The sender closes its side after the body: the request may go unanswered (never a 5xx). */
  end?: boolean;
  /** A Host the sandbox must not serve: anything but a 4xx is a failure. */
  mustRefuse?: boolean;
}

const HOSTILE_HOSTS = [
  'a b', '[', ']', '[::1', '[zz::1]', '[::1]x', 'x:99999', 'x:0', 'x:', ':80', 'x:-1', 'x:8o', 'x:80:80', '%', '%41', '%2e', '<script>', '"><img src=x>',
  'a/b', 'x/__sandbox/reset?', 'localhost/__sandbox/reset#', '127.0.0.1/__sandbox/reset?x=', 'x?y', 'x#y', 'a\\b', 'user@localhost', 'localhost@evil.example',
  '"localhost"', "'localhost'", 'local host', '..', '.', 'a..b', '-', '-a', 'é.test', 'localhost\u00ff', 'x'.repeat(300), `${'a.'.repeat(200)}b`,
  '999.1.1.1', '1.2.3.4.5', 'evil.example', 'evil.example:8787', 'localhost.evil.example', '127.0.0.1.evil.example', '10.0.0.1', '192.168.0.1:80', '[::2]',
  '0.0.0.0', '2130706433', '0x7f.1', '*', '*.localhost.evil', '{}', '$(id)', '`id`', 'a,b', 'localhost, evil.example', 'a;b',
];

/** Printable-ASCII strings drawn from the seed; the default Host rules would serve none of them. */
function generatedHosts(seed: number, runs: number): string[] {
  const check = new HostCheck();
  const chars = fc.constantFrom(...'abcxyz019.-_:[]%/?#@\\<>"\' {}|^`~!$&()*+,;='.split(''));
  return fc.sample(fc.string({ unit: chars, minLength: 1, maxLength: 24 }), { seed, numRuns: runs }).filter((h) => {
    const parsed = parseHost(h.trim());
    return h.trim() !== '' && !(parsed && check.allows(parsed));
  });
}

/** Routes a fuzz request may reach with the admin's token without destroying the world. */
export function gentleRoutes(routes: readonly RouteDef[]): RouteDef[] {
  return routes.filter((r) => !r.sandboxAdmin && r.method !== 'DELETE' && !/archive|reset|publish|schedule|clock|faults|delete|unlock/.test(r.path));
}

const fill = (path: string, world: World, value?: string) => path.replace(/[:*](\w+)/g, (_, name: string) => value ?? world.params[name]?.[0] ?? 'x');

export interface RawContext {
  port: string;
  seed: number;
  world: World;
  token: string;
  routes: readonly RouteDef[];
  /** How many routes each kind is sent to. */
  perKind: number;
}

export function rawCases(c: RawContext): RawCase[] {
  const host = `127.0.0.1:${c.port}`;
  const auth: [string, string] = ['Authorization', `Bearer ${c.token}`];
  const gentle = gentleRoutes(c.routes);
  const sample = (from: RouteDef[], salt: number) => fc.sample(fc.constantFrom(...from), { seed: c.seed + salt, numRuns: c.perKind });
  const cases: RawCase[] = [];

  // Host: every hostile value to a few routes, the sandbox reset and the token endpoint among them.
  const form = 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret';
  const hostTargets: { method: string; target: string; body?: string; type?: string }[] = [
    ...sample(gentle, 1).slice(0, 6).map((r) => ({ method: r.method, target: fill(r.path, c.world), body: r.method === 'GET' ? undefined : '{}' })),
    { method: 'POST', target: '/__sandbox/reset', body: '{}' },
    { method: 'POST', target: '/oauth/token', body: form, type: 'application/x-www-form-urlencoded' },
  ];
  for (const value of [...HOSTILE_HOSTS, ...generatedHosts(c.seed, 40)]) {
    for (const t of hostTargets) {
      const length: [string, string][] = t.body === undefined ? [] : [['Content-Type', t.type ?? 'application/json'], ['Content-Length', String(Buffer.byteLength(t.body))]];
      cases.push({ kind: 'host', what: `Host ${JSON.stringify(value).slice(0, 60)}`, method: t.method, target: t.target, headers: [['Host', value], auth, ...length], body: t.body, mustRefuse: true });
    }
  }
  for (const t of hostTargets.slice(0, 3)) {
    cases.push({ kind: 'host', what: 'no Host', method: 'GET', target: t.target, headers: [auth], mustRefuse: true });
    cases.push({ kind: 'host', what: 'two Hosts', method: 'GET', target: t.target, headers: [['Host', host], ['Host', 'evil.example'], auth], mustRefuse: true });
    cases.push({ kind: 'host', what: 'empty Host', method: 'GET', target: t.target, headers: [['Host', ''], auth], mustRefuse: true });
    cases.push({ kind: 'host', what: 'folded Host', method: 'GET', target: t.target, headers: [['Host', `\r\n ${host}`], auth] });
  }

  // Request targets: fixed hostile targets, then each sampled route with its ids mangled.
  const targets = [
    `http://${host}/v2/content/hubs`, 'http://evil.example/__sandbox/reset', 'https://localhost/v2/content/hubs', `HTTP://${host}/`, `http://[::1]:${c.port}/__sandbox/status`,
    '//evil.example/v2/content/hubs', '*', host, 'evil.example:80', '', '?x=1', '#', 'v2/content/hubs',
    '/v2/content/../../__sandbox/reset', '/v2/content/hubs/../../../__sandbox/reset', '/%2e%2e/__sandbox/reset', '/v2/content/hubs/%2e%2e%2f%2e%2e%2f__sandbox%2freset', '/..', '/../..', '/./v2/./content/hubs', '/v2/content/hubs/..;/x',
    '/v2/content/hubs/%', '/v2/content/hubs/%zz', '/v2/content/hubs/%00', '/v2/content/hubs/%ff%fe', '/v2/content/hubs/%c0%af', '/v2/content/hubs/%ed%a0%80', '/v2/content/hubs/%E2%80%AE',
    '/v2/content/hubs?%', '/v2/content/hubs?size=%zz', '/v2/content/hubs?size=1&size=2', '/v2/content/hubs?size=-1', '/v2/content/hubs#frag', '/v2/content/hubs;jsessionid=x',
    '/v2/content/hubs/\\..\\..\\__sandbox\\reset', '/\\evil.example/', '/__SANDBOX/RESET', '/__sandbox/reset%00', '/__sandbox/status/',
    `/v2/content/hubs/${'a'.repeat(8000)}`, `/${'a/'.repeat(3000)}`, `/v2/content/hubs?q=${'q'.repeat(15_000)}`, `/v2/content/hubs?${'&'.repeat(5000)}`, `/v2/content/hubs?q=${'q'.repeat(20_000)}`,
    '/v2/content/hubs/\x01', '/v2/content/hubs/\x7f', '/v2/\tcontent/hubs', '/v2/content/hubs/\u00e9', '/v2/content/hubs/\u202e', '/v2/content/hubs/\x00',
  ];
  for (const target of targets) for (const method of ['GET', 'PUT']) cases.push({ kind: 'target', what: `target ${JSON.stringify(target).slice(0, 60)}`, method, target, headers: [['Host', host], auth] });
  const mangles = ['..', '%2e%2e', '%2F', '%', '%00', '%zz', '\\', 'a'.repeat(4000), '%ff', '%C0%AE', '*', 'http:'];
  for (const r of sample(gentle.filter((x) => x.path.includes(':')), 2)) {
    for (const value of mangles) {
      cases.push({ kind: 'target', what: `${r.method} ${r.path} ids=${value.slice(0, 20)}`, method: r.method === 'GET' ? 'GET' : 'PUT', target: fill(r.path, c.world, value), headers: [['Host', host], auth] });
    }
  }

  // Framing: Content-Length and Transfer-Encoding, on routes that take a body.
  const withBody = gentle.filter((r) => r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT');
  const json = '{"name":"fuzz-framing","label":"Framing"}';
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
  const framings: { what: string; headers: [string, string][]; body: string; end?: boolean }[] = [
    { what: 'CL shorter than body', headers: [['Content-Length', String(json.length - 3)]], body: json },
    { what: 'CL longer than body, then close', headers: [['Content-Length', String(json.length + 10)]], body: json, end: true },
    { what: 'CL 0 with a body', headers: [['Content-Length', '0']], body: json },
    { what: 'CL twice, same', headers: [['Content-Length', String(json.length)], ['Content-Length', String(json.length)]], body: json },
    { what: 'CL twice, different', headers: [['Content-Length', String(json.length)], ['Content-Length', '3']], body: json },
    { what: 'CL list', headers: [['Content-Length', `${json.length}, ${json.length}`]], body: json },
    { what: 'CL negative', headers: [['Content-Length', '-1']], body: json },
    { what: 'CL +n', headers: [['Content-Length', `+${json.length}`]], body: json },
    { what: 'CL hex', headers: [['Content-Length', '0x10']], body: json },
    { what: 'CL with a space inside', headers: [['Content-Length', '1 0']], body: json },
    { what: 'CL not a number', headers: [['Content-Length', 'abc']], body: json },
    { what: 'CL huge', headers: [['Content-Length', '99999999999999999999']], body: json, end: true },
    { what: 'CL over the body limit', headers: [['Content-Length', String(10 * 1024 * 1024 + 1)]], body: json, end: true },
    { what: 'no length, a body', headers: [], body: json },
    { what: 'TE chunked', headers: [['Transfer-Encoding', 'chunked']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE chunked, many small chunks', headers: [['Transfer-Encoding', 'chunked']], body: `${[...json].map(chunk).join('')}0\r\n\r\n` },
    { what: 'TE chunked, bad size', headers: [['Transfer-Encoding', 'chunked']], body: `zz\r\n${json}\r\n0\r\n\r\n` },
    { what: 'TE chunked, size overflow', headers: [['Transfer-Encoding', 'chunked']], body: `ffffffffffffffffffff\r\n${json}\r\n0\r\n\r\n` },
    { what: 'TE chunked, extension', headers: [['Transfer-Encoding', 'chunked']], body: `${json.length.toString(16)};x=y\r\n${json}\r\n0\r\n\r\n` },
    { what: 'TE chunked, trailer', headers: [['Transfer-Encoding', 'chunked']], body: `${chunk(json)}0\r\nX-Trailer: a\r\n\r\n` },
    { what: 'TE chunked, no last chunk, then close', headers: [['Transfer-Encoding', 'chunked']], body: chunk(json), end: true },
    { what: 'TE chunked and CL', headers: [['Transfer-Encoding', 'chunked'], ['Content-Length', String(json.length)]], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'CL and TE chunked', headers: [['Content-Length', '5'], ['Transfer-Encoding', 'chunked']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE gzip', headers: [['Transfer-Encoding', 'gzip']], body: json },
    { what: 'TE gzip, chunked', headers: [['Transfer-Encoding', 'gzip, chunked']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE chunked, chunked', headers: [['Transfer-Encoding', 'chunked, chunked']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE identity', headers: [['Transfer-Encoding', 'identity']], body: json },
    { what: 'TE CHUNKED', headers: [['Transfer-Encoding', 'CHUNKED']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE twice', headers: [['Transfer-Encoding', 'chunked'], ['Transfer-Encoding', 'chunked']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE folded', headers: [['Transfer-Encoding', '\r\n chunked']], body: `${chunk(json)}0\r\n\r\n` },
    { what: 'TE with a space before the colon', headers: [['Transfer-Encoding ', 'chunked']], body: `${chunk(json)}0\r\n\r\n` },
  ];
  for (const r of fc.sample(fc.constantFrom(...withBody), { seed: c.seed + 3, numRuns: c.perKind })) {
    for (const f of framings) {
      cases.push({ kind: 'framing', what: `${f.what} on ${r.method} ${r.path}`, method: r.method, target: fill(r.path, c.world), headers: [['Host', host], auth, ['Content-Type', 'application/json'], ...f.headers], body: f.body, end: f.end });
    }
  }
  // GET and HEAD with bodies.
  for (const method of ['GET', 'HEAD']) {
    cases.push({ kind: 'framing', what: `${method} with a body`, method, target: '/v2/content/hubs', headers: [['Host', host], auth, ['Content-Length', String(json.length)]], body: json });
  }

  // Content-Type, on routes that take a JSON body, with a body they might accept.
  const types = [
    'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset=', 'application/json;', 'APPLICATION/JSON', 'application/merge-patch+json',
    'application/vnd.api+json', 'text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', ';;;', '', 'application/', '/json',
    '*/*', 'application/*', 'application/json, text/plain', `application/json${' '.repeat(1000)}x`, 'a'.repeat(8000), 'application/json; boundary="', 'application/json\t; q=1', 'json',
  ];
  const jsonRoutes = withBody.filter((r) => r.op !== 'oauth.issueToken' && !r.textBody);
  for (const r of fc.sample(fc.constantFrom(...jsonRoutes), { seed: c.seed + 4, numRuns: c.perKind })) {
    const example = c.world.examples[r.op]?.[0];
    const body = JSON.stringify(example ?? {});
    for (const type of types) {
      cases.push({ kind: 'content-type', what: `Content-Type ${JSON.stringify(type).slice(0, 50)} on ${r.method} ${r.path}`, method: r.method, target: fill(r.path, c.world), headers: [['Host', host], auth, ['Content-Type', type], ['Content-Length', String(Buffer.byteLength(body))]], body });
    }
    cases.push({ kind: 'content-type', what: `two Content-Types on ${r.method} ${r.path}`, method: r.method, target: fill(r.path, c.world), headers: [['Host', host], auth, ['Content-Type', 'text/plain'], ['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(body))]], body });
  }
  return cases;
}
