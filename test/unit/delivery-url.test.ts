import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_ORIGIN, deliveryBase, resolveConnection } from '../../src/config/resolve.js';
import { UsageError } from '../../src/core/errors.js';

// Where `cms item get --delivered` reads Content Delivery 2. The hosted service's CD2 is on a host
// of each hub (the vendor's delivery SDK 1.4.0, createContentClient: https://<hubName>.cdn.content.amplience.net),
// not on the API origin; a sandbox serves it at {origin}/cdn/<hub>; CMS_DELIVERY_URL overrides both.

const dir = mkdtempSync(join(tmpdir(), 'cms-delivery-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = (extra: Record<string, string>) => ({ CMS_CONFIG_DIR: dir, CMS_DATA_DIR: dir, CMS_CLIENT_ID: 'id', CMS_CLIENT_SECRET: 'secret', ...extra });

describe('deliveryBase', () => {
  it('the hosted service: the hub host of the vendor SDK, not the API origin', () => {
    const conn = resolveConnection({}, env({ CMS_API_URL: 'https://api.amplience.net' }));
    expect(deliveryBase(conn, 'demo')).toBe('https://demo.cdn.content.amplience.net');
    expect(deliveryBase(conn, 'Demo-Hub')).toBe('https://demo-hub.cdn.content.amplience.net');
    // A hub name that is no DNS label never becomes part of a host name.
    expect(() => deliveryBase(conn, 'evil.example/x')).toThrow(UsageError);
  });

  it('a sandbox, embedded or served: {origin}/cdn/<hub>', () => {
    expect(deliveryBase(resolveConnection({}, env({})), 'demo')).toBe(`${EMBEDDED_ORIGIN}/cdn/demo`);
    expect(deliveryBase(resolveConnection({}, env({ CMS_API_URL: 'http://127.0.0.1:8787/v2/content' })), 'my hub')).toBe('http://127.0.0.1:8787/cdn/my%20hub');
  });

  it('CMS_DELIVERY_URL wins, {hubName} filled in; not http(s) is a usage error naming it', () => {
    const conn = resolveConnection({}, env({ CMS_API_URL: 'https://api.amplience.net', CMS_DELIVERY_URL: 'https://cd.example.com/{hubName}/' }));
    expect(deliveryBase(conn, 'demo')).toBe('https://cd.example.com/demo');
    expect(deliveryBase(resolveConnection({}, env({ CMS_DELIVERY_URL: 'https://{hubName}.cdn.example.com' })), 'demo')).toBe('https://demo.cdn.example.com');
    expect(() => resolveConnection({}, env({ CMS_DELIVERY_URL: 'ftp://x' }))).toThrow(/CMS_DELIVERY_URL/);
  });
});
