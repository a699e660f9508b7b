import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ADMIN } from '../../src/config/resolve.js';
import { CliHome, type CliResult } from '../helpers/cli.js';

// No secret value reaches the terminal: not in --debug traces (requests, answers, headers), not in
// error output, not in results. Every integration kind gets credentials objects under many key
// spellings (the service masks every value of a credentials object, whatever the key), webhooks
// get a signing secret and secret headers, and the token request carries the client secret.

const home = new CliHome();
let n = 0;
const secrets: string[] = [SANDBOX_ADMIN.clientSecret];
/** A unique secret value, remembered so every output can be searched for it. */
const s = (hint: string) => {
  const value = `SECRET-${hint}-${++n}-zq`;
  secrets.push(value);
  return value;
};

/** Credentials under the spellings platforms use: none of these keys looks like "clientSecret". */
const credentials = () => ({
  clientId: s('client-id'),
  'client-secret': s('client-secret'),
  privateKey: s('private-key'),
  apiSecret: s('api-secret'),
  secret_key: s('secret-key'),
  username: s('username'),
  password: s('password'),
  nested: { token: s('token'), list: [s('list')], endpoint: s('endpoint') },
});

const noSecret = (res: CliResult) => {
  const out = res.stdout + res.stderr;
  for (const secret of secrets) expect(out, `${secret} leaked`).not.toContain(secret);
};

let hubId: string;
beforeAll(async () => {
  hubId = (await home.json<{ id: string }>(['hub', 'create', '--name', 'site', '--label', 'Site'])).id;
}, 60_000);
afterAll(() => home.cleanup());

const run = (args: string[], body?: unknown) => home.run(['--debug', ...args, ...(body ? ['--body-file', '-'] : [])], { input: body ? JSON.stringify(body) : '', env: { CMS_HUB: hubId } });

describe('--debug and errors show no secret', () => {
  it('commerce integration: create, update, get, a refused update', async () => {
    const body = { 'commerce-credentials': credentials(), 'cms-credentials': credentials(), 'commerce-api': { url: 'https://shop.example.com' }, rendering: {} };
    const created = await run(['integration', 'commerce', 'create', '-o', 'json'], body);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stderr).toContain('> POST');
    noSecret(created);
    const id = JSON.parse(created.stdout).id;
    const updated = await run(['integration', 'commerce', 'update', id, '-o', 'json'], { 'commerce-credentials': credentials() });
    expect(updated.exitCode, updated.stderr).toBe(0);
    noSecret(updated);
    noSecret(await run(['integration', 'commerce', 'get', id]));
    // A value where an object belongs: the service refuses it, nothing of it is printed.
    const refused = await run(['integration', 'commerce', 'update', id], { 'commerce-credentials': s('not-an-object') });
    expect(refused.exitCode).toBe(2);
    noSecret(refused);
  });

  it('marketing integration: create and update', async () => {
    const body = { label: 'News', active: true, 'marketing-credentials': credentials(), 'cms-credentials': credentials(), rendering: {}, contentAssets: {} };
    const created = await run(['integration', 'marketing', 'create', '-o', 'json'], body);
    expect(created.exitCode, created.stderr).toBe(0);
    noSecret(created);
    const updated = await run(['integration', 'marketing', 'update', JSON.parse(created.stdout).id], { 'marketing-credentials': credentials() });
    expect(updated.exitCode, updated.stderr).toBe(0);
    noSecret(updated);
  });

  it('webhooks: signing secret and secret headers', async () => {
    const res = await run(['webhook', 'create', '--label', 'W', '--event', 'content-item.created', '--handler', 'http://127.0.0.1:9/', '--secret', s('signing'), '--secret-header', `X-Api-Key=${s('header')}`, '--secret-header', `X-Custom=${s('custom-header')}`]);
    expect(res.exitCode, res.stderr).toBe(0);
    // The trace shows the request, the headers' names, and no value of a secret header.
    expect(res.stderr).toContain('X-Custom');
    const out = res.stderr;
    for (const secret of secrets.filter((x) => x.includes('header') || x.includes('signing'))) expect(out).not.toContain(secret);
  });

  it('cms api with a raw body and a secret request header', async () => {
    const res = await home.run(['--debug', 'api', 'POST', '/integrations/commerce', '--header', `X-Api-Key: ${s('api-header')}`, '--input', '-'], {
      input: JSON.stringify({ hubId, 'commerce-credentials': credentials(), 'cms-credentials': {}, 'commerce-api': {}, rendering: {} }),
    });
    noSecret(res);
  });
});
