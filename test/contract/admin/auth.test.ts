import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { contentSetup, createItem } from '../../helpers/content.js';
import { createEvent, sandboxNow } from '../../helpers/editions.js';
import { scheduledEdition } from '../../helpers/events.js';

// Token endpoint (wire-contract §3, description "Authentication") and bearer checks on API calls.

let srv: TestServer;
let admin: Api;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
});

afterAll(async () => {
  await srv?.stop();
});

async function token(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A token's parts with its payload replaced (the signature kept). */
function withPayload(tok: string, change: (claims: any) => void): string {
  const [h, p, s] = tok.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  change(claims);
  return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
}

describe('token endpoint', () => {
  it("takes the fields from the query string when the body has none (the vendor's demo tools POST `?client_id=…&client_secret=…&grant_type=client_credentials` with a body of `{}`)", async () => {
    const q = new URLSearchParams({ client_id: 'sandbox-admin', client_secret: 'sandbox-secret', grant_type: 'client_credentials' });
    const res = await fetch(`${srv.url}/oauth/token?${q}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(typeof ((await res.json()) as { access_token: string }).access_token).toBe('string');
    // The body wins where it names a field; a wrong secret in the query is still refused.
    const wrong = await fetch(`${srv.url}/oauth/token?client_id=sandbox-admin&client_secret=nope&grant_type=client_credentials`, { method: 'POST' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('invalid_client');
    const bodyWins = await fetch(`${srv.url}/oauth/token?client_secret=sandbox-secret`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-admin', client_secret: 'nope' }) });
    expect(bodyWins.status).toBe(400);
  });

  it('issues a bearer token for client_id and client_secret form fields', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials', client_id: 'sandbox-admin', client_secret: 'sandbox-secret' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(typeof res.body.access_token).toBe('string');
    expect(res.body.access_token.length).toBeGreaterThan(0);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.expires_in).toBe(300);
    expect(res.body.session_expires_in).toBe(0);
  });

  it('the issued token authorizes API calls', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials', client_id: 'sandbox-admin', client_secret: 'sandbox-secret' });
    const hubs = await admin.get('/hubs', { token: res.body.access_token });
    expect(hubs.status).toBe(200);
  });

  it('accepts HTTP Basic credentials with url-encoded id and secret', async () => {
    const secret = 'p@ss:w%rd +x/ü';
    const created = await admin.post('/__sandbox/clients', { id: 'basic-client', secret, permissions: [] });
    expect(created.status).toBe(201);
    const res = await token(srv.url, { grant_type: 'client_credentials' }, { authorization: basic('basic-client', secret) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.expires_in).toBe(300);
    expect(res.body.session_expires_in).toBe(0);
    const hubs = await admin.get('/hubs', { token: res.body.access_token });
    expect(hubs.status).toBe(200);
  });

  it('accepts HTTP Basic credentials without characters to encode', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials' }, { authorization: basic('sandbox-admin', 'sandbox-secret') });
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
  });

  it('a wrong secret is 400 with the error body', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials', client_id: 'sandbox-admin', client_secret: 'wrong' });
    expectError(res, 400);
    expect(res.body.access_token).toBeUndefined();
  });

  it('a wrong secret over HTTP Basic is 400', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials' }, { authorization: basic('sandbox-admin', 'wrong') });
    expectError(res, 400);
  });

  it('an unknown client is 400 with the error body', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'sandbox-secret' });
    expectError(res, 400);
  });

  it('missing credentials are 400', async () => {
    const res = await token(srv.url, { grant_type: 'client_credentials' });
    expectError(res, 400);
  });

  it('a grant_type other than client_credentials is 400', async () => {
    const res = await token(srv.url, { grant_type: 'password', client_id: 'sandbox-admin', client_secret: 'sandbox-secret' });
    const err = expectError(res, 400);
    expect(err.property).toBe('grant_type');
  });

  it('a missing grant_type is 400', async () => {
    const res = await token(srv.url, { client_id: 'sandbox-admin', client_secret: 'sandbox-secret' });
    expectError(res, 400);
  });
});

describe('bearer token on API calls', () => {
  it('no Authorization header is 401 with a Bearer challenge', async () => {
    const res = await admin.get('/hubs', { token: null });
    expectError(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  it('the root and the localization lists need a token too', async () => {
    expectError(await admin.get('', { token: null }), 401);
    expectError(await admin.get('/localization', { token: null }), 401);
    expectError(await admin.post('/hubs', { name: 'x', label: 'x' }, { token: null }), 401);
  });

  it.each([
    ['a scheme other than Bearer', 'Token abc'],
    ['the scheme word alone', 'Bearer'],
    ['the scheme word and a blank', 'Bearer '],
    ['Basic credentials', 'Basic c2FuZGJveC1hZG1pbjpzYW5kYm94LXNlY3JldA=='],
  ])('a malformed header (%s) is 401', async (_name, header) => {
    const res = await admin.get('/hubs', { token: null, headers: { authorization: header } });
    expectError(res, 401);
  });

  it('an undecodable token is 401', async () => {
    expectError(await admin.get('/hubs', { token: 'abc' }), 401);
    expectError(await admin.get('/hubs', { token: 'a.b.c' }), 401);
  });

  it('"bearer undefined" (what an SDK sends after a failed token request) is 401', async () => {
    const res = await admin.get('/hubs', { token: null, headers: { authorization: 'bearer undefined' } });
    expectError(res, 401);
  });

  it('a token with a modified signature is 401', async () => {
    const tok = admin.token!;
    const last = tok.at(-1) === 'A' ? 'B' : 'A';
    expectError(await admin.get('/hubs', { token: tok.slice(0, -1) + last }), 401);
  });

  it('a token whose payload was changed is 401', async () => {
    const forged = withPayload(admin.token!, (c) => {
      c.exp += 3600;
    });
    expectError(await admin.get('/hubs', { token: forged }), 401);
  });

  it('a token issued by another sandbox is 401', async () => {
    const other = await startServer();
    try {
      const foreign = await new Api(other.url).login();
      expect((await foreign.get('/hubs')).status).toBe(200);
      expectError(await admin.get('/hubs', { token: foreign.token }), 401);
    } finally {
      await other.stop();
    }
  });

  it('the scheme word is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await admin.get('/hubs', { token: null, headers: { authorization: `${scheme} ${admin.token}` } });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('a token of a removed client is 401', async () => {
    const gone = await admin.client('auth-removed', []);
    expect((await gone.get('/hubs')).status).toBe(200);
    expect((await admin.del('/__sandbox/clients/auth-removed')).status).toBe(204);
    expectError(await gone.get('/hubs'), 401);
  });

  it('a token of a removed client stays dead when the id is re-created (same id, same secret)', async () => {
    const old = await admin.client('auth-recreated', ['CONTENT:FUNCTIONAL:HUB:CREATE']);
    const oldToken = old.token;
    expect((await admin.del('/__sandbox/clients/auth-recreated')).status).toBe(204);
    const renewed = await admin.client('auth-recreated', []);
    expect((await renewed.get('/hubs')).status).toBe(200);
    const e = expectError(await old.get('/hubs', { token: oldToken }), 401);
    expect(e.message).toContain('not valid');
  });
});

describe('token expiry', () => {
  it('a token past its lifetime is 401 (tokenTtlSeconds: 1)', async () => {
    const short = await startServer({ tokenTtlSeconds: 1 });
    try {
      const res = await token(short.url, { grant_type: 'client_credentials', client_id: 'sandbox-admin', client_secret: 'sandbox-secret' });
      expect(res.body.expires_in).toBe(1);
      await new Promise((r) => setTimeout(r, 2100));
      const api = new Api(short.url);
      expectError(await api.get('/hubs', { token: res.body.access_token }), 401);
      // A new token works again.
      await api.login();
      expect((await api.get('/hubs')).status).toBe(200);
    } finally {
      await short.stop();
    }
  });

  it('tokens expire on wall-clock time: a token held across clock advance 2d still schedules and publishes (wire contract 3)', async () => {
    const own = await startServer();
    try {
      const root = await new Api(own.url).login();
      const held = root.token;
      const setup = await contentSetup(root);
      const event = await createEvent(root, setup.hubId);
      expect((await root.post('/__sandbox/clock', { advance: '2d' })).status).toBe(200);
      // The same token, two sandbox days later: schedule an edition, publish an item.
      const now = await sandboxNow(root);
      const edition = await scheduledEdition(root, setup, event.id, { start: new Date(now + 86_400_000).toISOString(), end: new Date(now + 10 * 86_400_000).toISOString() });
      expect(edition.publishingStatus).toBe('SCHEDULED');
      const item = await createItem(root, setup.repoId, setup.uri);
      expect((await root.post(`/content-items/${item.id}/publish`)).status).toBeLessThan(300);
      expect((await root.post('/__sandbox/clock', { advance: '3d' })).status).toBe(200);
      expect((await root.get(`/editions/${edition.id}`)).body.publishingStatus).toBe('PUBLISHED');
      expect(root.token).toBe(held);
      // A token issued while the clock is days ahead lives its expires_in on the wall clock too.
      const second = await root.client('clock-client', []);
      expect((await root.post('/__sandbox/clock', { set: '2020-01-01T00:00:00.000Z' })).status).toBe(200);
      expect((await second.get('/hubs')).status).toBe(200);
    } finally {
      await own.stop();
    }
  });
});
