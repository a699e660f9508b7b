import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAuthority } from '../../src/server/intercept/ca.js';
import { intercepted, mapRequest } from '../../src/server/intercept/hosts.js';
import { isLoopbackAddress } from '../../src/server/intercept/proxy.js';

// The interception CA (src/server/intercept/ca.ts, x509.ts) and the name mapping (hosts.ts):
// made once per data directory with its keys 0600 and nothing outside it, leaves for exactly the
// name asked, a corrupt, expired or readable CA replaced with a message that says why.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cms-ca-'));
  dirs.push(d);
  return d;
};
const DAY = 86_400_000;

describe('the interception CA', () => {
  it('is made once per data directory, keys 0600, nothing written beside it', () => {
    const dir = dataDir();
    const warnings: string[] = [];
    const a = loadAuthority(dir, (m) => warnings.push(m));
    expect(readdirSync(dir)).toEqual(['intercept']);
    expect(readdirSync(join(dir, 'intercept')).sort()).toEqual(['ca-key.pem', 'ca.pem', 'leaf-key.pem']);
    for (const key of ['ca-key.pem', 'leaf-key.pem']) expect(statSync(join(dir, 'intercept', key)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'intercept')).mode & 0o777).toBe(0o700);
    const ca = new X509Certificate(readFileSync(a.caFile));
    expect(ca.ca).toBe(true);
    expect(readFileSync(a.caFile, 'utf8')).not.toContain('PRIVATE KEY');
    // Loaded again: the same CA (what a command given ca.pem earlier keeps trusting).
    const b = loadAuthority(dir, (m) => warnings.push(m));
    expect(readFileSync(b.caFile, 'utf8')).toBe(readFileSync(a.caFile, 'utf8'));
    expect(b.leafSpki).toBe(a.leafSpki);
    expect(warnings).toEqual([]);
  });

  it('issues leaves for exactly the name asked, signed by the CA, within its validity', () => {
    const a = loadAuthority(dataDir(), () => {});
    const ca = new X509Certificate(readFileSync(a.caFile));
    const context = a.contextFor('demo.cdn.content.amplience.net');
    // The chain the TLS context presents: the leaf first.
    const chain = (context.context as { getCertificate(): Buffer | null }).getCertificate();
    const leaf = new X509Certificate(chain!);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.subjectAltName).toBe('DNS:demo.cdn.content.amplience.net');
    expect(leaf.checkHost('demo.cdn.content.amplience.net')).toBe('demo.cdn.content.amplience.net');
    expect(leaf.checkHost('other.cdn.content.amplience.net')).toBeUndefined();
    expect(leaf.checkHost('example.com')).toBeUndefined();
    expect(Date.parse(leaf.validTo)).toBeLessThanOrEqual(Date.parse(ca.validTo));
    expect(Date.parse(leaf.validFrom)).toBeLessThan(Date.now());
    expect(a.contextFor('demo.cdn.content.amplience.net')).toBe(context);
  });

  it('a corrupt CA is replaced, with a message saying so', () => {
    const dir = dataDir();
    const first = loadAuthority(dir, () => {});
    writeFileSync(first.caFile, 'not a certificate');
    const warnings: string[] = [];
    const second = loadAuthority(dir, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The interception CA in .*intercept could not be read .*: made a new one/);
    expect(new X509Certificate(readFileSync(second.caFile)).ca).toBe(true);
    expect(readdirSync(dir)).toEqual(['intercept']);
  });

  it('an expired CA (or one expiring within 30 days) is replaced, with its date', () => {
    const dir = dataDir();
    // Made as if 400 days ago: valid for 365 days, so expired 35 days ago.
    loadAuthority(dir, () => {}, Date.now() - 400 * DAY);
    const warnings: string[] = [];
    const renewed = loadAuthority(dir, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/expired on \d{4}-\d\d-\d\dT.*: made a new one/);
    expect(Date.parse(new X509Certificate(readFileSync(renewed.caFile)).validTo)).toBeGreaterThan(Date.now() + 300 * DAY);
    // One that ends in 20 days is replaced before it does.
    const soon = dataDir();
    loadAuthority(soon, () => {}, Date.now() - 345 * DAY);
    const w2: string[] = [];
    loadAuthority(soon, (m) => w2.push(m));
    expect(w2[0]).toMatch(/expires on /);
  });

  it('a key others could read is not trusted: a new CA is made', () => {
    const dir = dataDir();
    loadAuthority(dir, () => {});
    chmodSync(join(dir, 'intercept', 'ca-key.pem'), 0o644);
    const warnings: string[] = [];
    loadAuthority(dir, (m) => warnings.push(m));
    expect(warnings[0]).toMatch(/had a key others could read \(ca-key\.pem\)/);
    expect(statSync(join(dir, 'intercept', 'ca-key.pem')).mode & 0o777).toBe(0o600);
  });
});

describe("the service's names", () => {
  const none = () => false;
  it('intercepts the vendor clients\' default hosts, and staging hostnames the data names', () => {
    for (const name of ['api.amplience.net', 'auth.amplience.net', 'virtual-staging.amplience.net', 'demo.cdn.content.amplience.net']) expect(intercepted(name, none), name).toBe(true);
    for (const name of ['cdn.c1.amplience.net', 'demo.fresh.content.amplience.net', 'a.b.cdn.content.amplience.net', 'amplience.net', 'example.com', 'api.amplience.net.evil.com']) expect(intercepted(name, none), name).toBe(false);
    expect(intercepted('vse.example.test', (n) => n === 'vse.example.test')).toBe(true);
    expect(intercepted('x1y2.staging.bigcontent.io', () => true)).toBe(true);
    // A staging hostname is data: one naming somebody else's host is never captured.
    for (const name of ['registry.npmjs.org', 'github.com', 'example.com', 'test', 'evil.test.com']) expect(intercepted(name, () => true), name).toBe(false);
  });

  it('maps each to the sandbox, never outside the prefix', () => {
    const ok = (m: ReturnType<typeof mapRequest>) => ('url' in m ? `${m.url.href} ${m.reach}` : `${m.status}`);
    expect(ok(mapRequest('https', 'demo.cdn.content.amplience.net', '/content/key/pages/home?depth=all'))).toBe('https://demo.cdn.content.amplience.net/cdn/demo/content/key/pages/home?depth=all all');
    expect(ok(mapRequest('https', 'api.amplience.net', '/v2/content/hubs'))).toBe('https://api.amplience.net/v2/content/hubs all');
    expect(ok(mapRequest('https', 'auth.amplience.net', '/oauth/token?grant_type=x'))).toBe('https://auth.amplience.net/oauth/token?grant_type=x all');
    expect(ok(mapRequest('https', 'vse.example.test', '/content/id/1'))).toBe('https://vse.example.test/content/id/1 staging');
    for (const [name, path] of [
      ['api.amplience.net', '/__sandbox/reset'],
      ['api.amplience.net', '/v2/contents'],
      ['api.amplience.net', '/v2/content/../../__sandbox/reset'],
      ['api.amplience.net', '/v2/content/%2e%2e/%2e%2e/__sandbox/reset'],
      ['auth.amplience.net', '/'],
      ['virtual-staging.amplience.net', '/v2/content/hubs'],
    ]) expect(ok(mapRequest('https', name!, path!)), `${name}${path}`).toBe('404');
  });

  it('only loopback clients', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['192.0.2.2', '::ffff:192.0.2.2', '10.0.0.1', 'fe80::1', '', undefined]) expect(isLoopbackAddress(a), String(a)).toBe(false);
  });
});
