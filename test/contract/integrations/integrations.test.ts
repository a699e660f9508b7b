import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS, MISSING_ID } from '../../helpers/assert.js';

// Integrations (description: Integrations, Events 3, Limits; wire contract §4 integrations row):
// the hub listing, commerce and marketing CRUD with cursor paging, masked credentials, and the
// one webhook each integration owns.

const MASK = '********';

let srv: TestServer;
let admin: Api;
let hubId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
});

afterAll(async () => {
  await srv?.stop();
});

const commerceBody = (hub = hubId, fields: Record<string, unknown> = {}) => ({
  hubId: hub,
  label: unique('Shop'),
  'commerce-credentials': { clientId: 'shop-client', clientSecret: 'shop-secret' },
  'cms-credentials': { clientId: 'cms-client', clientSecret: 'cms-secret' },
  'commerce-api': { url: 'https://shop.example.com/api', siteId: 'RefArch' },
  contentSlots: { enabled: true },
  rendering: { templateName: 'default' },
  contentAssets: { enabled: true },
  localeMappings: { 'en-US': 'en-GB', fr: 'fr-FR' },
  ...fields,
});

const marketingBody = (hub = hubId, fields: Record<string, unknown> = {}) => ({
  hubId: hub,
  label: unique('Mail'),
  active: true,
  'marketing-credentials': { username: 'mailer', password: 'mail-pass' },
  'cms-credentials': { clientId: 'cms-client', clientSecret: 'cms-secret' },
  rendering: { templateName: 'email' },
  contentAssets: { folder: 'email' },
  ...fields,
});

async function create(type: 'commerce' | 'marketing', body: Record<string, unknown>): Promise<any> {
  const res = await admin.post(`/integrations/${type}`, body);
  if (res.status !== 201) throw new Error(`${type} create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** What the store holds for an integration: secrets must survive updates that send masks back. */
function stored(id: string): any {
  const row = srv.sandbox.service.db.prepare('SELECT data FROM integrations WHERE id = ?').pluck().get(id) as string;
  return JSON.parse(row);
}

describe('commerce integration: create and get', () => {
  it('answers 201 with every field, Location, links, and credentials masked key by key', async () => {
    const body = commerceBody();
    const res = await admin.post('/integrations/commerce', body);
    expect(res.status, res.text).toBe(201);
    const integration = res.body;
    expect(integration.id).toMatch(HEX_ID);
    const self = `${admin.base}/integrations/commerce/${integration.id}`;
    expect(res.headers.get('location')).toBe(self);
    expect(integration).toMatchObject({
      hubId,
      type: 'commerce',
      label: body.label,
      'commerce-credentials': { clientId: MASK, clientSecret: MASK },
      'cms-credentials': { clientId: MASK, clientSecret: MASK },
      'commerce-api': body['commerce-api'],
      contentSlots: body.contentSlots,
      rendering: body.rendering,
      contentAssets: body.contentAssets,
      localeMappings: body.localeMappings,
      createdBy: 'sandbox-admin',
      lastModifiedBy: 'sandbox-admin',
    });
    expect(integration.createdDate).toMatch(ISO_MILLIS);
    expect(res.text).not.toContain('shop-secret');
    expect(res.text).not.toContain('cms-secret');
    expect(integration._links).toMatchObject({
      self: { href: self },
      integration: { href: self },
      hub: { href: `${admin.base}/hubs/${hubId}` },
      update: { href: self },
      delete: { href: self },
      webhook: { href: `${admin.base}/hubs/${hubId}/webhooks/${integration.webhookId}` },
      campaigns: { href: `${srv.url}/__sandbox/commerce/${integration.id}/campaigns` },
      live: { href: `${srv.url}/__sandbox/commerce/${integration.id}/live{?slot,at}`, templated: true },
    });
    // The store keeps the secrets themselves.
    expect(stored(integration.id).settings['commerce-credentials']).toEqual(body['commerce-credentials']);

    const got = await admin.get(`/integrations/commerce/${integration.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(integration);
  });

  it('creates its one webhook: labelled for the site, the edition and publication events, delivered to the commerce platform', async () => {
    const integration = await create('commerce', commerceBody(hubId, { label: 'EU store' }));
    const hook = await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`);
    expect(hook.status).toBe(200);
    expect(hook.body).toMatchObject({
      label: 'Commerce integration: EU store',
      events: ['edition.scheduled', 'edition.unscheduled', 'content-item.published'],
      handlers: [`sandbox://commerce/${integration.id}`],
      active: true,
      method: 'POST',
    });
    const owned = (await admin.get(`/hubs/${hubId}/webhooks?size=1000`)).body._embedded.webhooks.filter((w: any) => w.handlers.includes(`sandbox://commerce/${integration.id}`));
    expect(owned).toHaveLength(1);
  });

  it('contentSlots, contentAssets, localeMappings and label are optional', async () => {
    const { contentSlots: _s, contentAssets: _a, localeMappings: _l, label: _label, ...required } = commerceBody();
    const integration = await create('commerce', required);
    expect(integration.label).toBe('');
    expect(integration).not.toHaveProperty('contentSlots');
    expect(integration).not.toHaveProperty('localeMappings');
    expect((await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`)).body.label).toBe(`Commerce integration: ${integration.id}`);
  });

  it.each(['hubId', 'commerce-credentials', 'cms-credentials', 'commerce-api', 'rendering'])('%s is required (400 naming it)', async (field) => {
    const body: Record<string, unknown> = commerceBody();
    delete body[field];
    const err = expectError(await admin.post('/integrations/commerce', body), 400);
    expect(err).toMatchObject({ entity: 'CommerceIntegration', property: field });
    expect(err.message).toContain('is required');
  });

  it('object fields must be objects, localeMappings keys and values locales; every problem is named', async () => {
    const res = await admin.post('/integrations/commerce', commerceBody(hubId, { 'commerce-api': 'https://shop', contentSlots: [1], rendering: null, localeMappings: { 'en-US': 'not a locale!' } }));
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(expect.arrayContaining(['commerce-api', 'contentSlots', 'rendering', 'localeMappings.en-US']));
    const badKey = await admin.post('/integrations/commerce', commerceBody(hubId, { localeMappings: { 'english please': 'en-GB' } }));
    expect(expectError(badKey, 400).property).toContain('localeMappings');
  });

  it('a masked value on create has nothing stored behind it: 400', async () => {
    const err = expectError(await admin.post('/integrations/commerce', commerceBody(hubId, { 'commerce-credentials': { clientId: 'x', clientSecret: MASK } })), 400);
    expect(err.property).toBe('commerce-credentials.clientSecret');
  });

  it('an unknown hub is 404; an unknown integration is 404, also under the other type', async () => {
    expect(expectError(await admin.post('/integrations/commerce', commerceBody(MISSING_ID)), 404).entity).toBe('Hub');
    expect(expectError(await admin.get(`/integrations/commerce/${MISSING_ID}`), 404).entity).toBe('CommerceIntegration');
    const integration = await create('commerce', commerceBody());
    expect(expectError(await admin.get(`/integrations/marketing/${integration.id}`), 404).entity).toBe('MarketingIntegration');
  });
});

describe('commerce integration: update and delete', () => {
  it('PATCH changes the fields given; the webhook label follows; masks sent back keep the stored secrets', async () => {
    const body = commerceBody();
    const integration = await create('commerce', body);
    const res = await admin.patch(`/integrations/commerce/${integration.id}`, { label: 'US store', rendering: { templateName: 'us' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/integrations/commerce/${integration.id}`);
    expect(res.body).toMatchObject({ label: 'US store', rendering: { templateName: 'us' }, 'commerce-api': body['commerce-api'], 'commerce-credentials': { clientId: MASK, clientSecret: MASK } });
    expect((await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`)).body.label).toBe('Commerce integration: US store');

    // A client sends back the whole resource it fetched, masks included, with one secret changed.
    const fetched = (await admin.get(`/integrations/commerce/${integration.id}`)).body;
    const sentBack = { ...fetched, 'cms-credentials': { ...fetched['cms-credentials'], clientSecret: 'rotated' } };
    const again = await admin.patch(`/integrations/commerce/${integration.id}`, sentBack);
    expect(again.status, again.text).toBe(200);
    expect(again.text).not.toContain('rotated');
    expect(stored(integration.id).settings).toMatchObject({
      'commerce-credentials': body['commerce-credentials'],
      'cms-credentials': { clientId: 'cms-client', clientSecret: 'rotated' },
    });
  });

  it('nested objects replace the stored ones whole; a mask for a key with nothing stored is 400', async () => {
    const integration = await create('commerce', commerceBody());
    const res = await admin.patch(`/integrations/commerce/${integration.id}`, { 'commerce-credentials': { apiKey: 'k1' } });
    expect(res.body['commerce-credentials']).toEqual({ apiKey: MASK });
    expect(stored(integration.id).settings['commerce-credentials']).toEqual({ apiKey: 'k1' });
    const err = expectError(await admin.patch(`/integrations/commerce/${integration.id}`, { 'commerce-credentials': { apiKey: MASK, token: MASK } }), 400);
    expect(err.property).toBe('commerce-credentials.token');
  });

  it('update validates like create, and an integration cannot move to another hub', async () => {
    const integration = await create('commerce', commerceBody());
    expect(expectError(await admin.patch(`/integrations/commerce/${integration.id}`, { rendering: 'x' }), 400).property).toBe('rendering');
    const other = (await createHub(admin)).id;
    expect(expectError(await admin.patch(`/integrations/commerce/${integration.id}`, { hubId: other }), 400).property).toBe('hubId');
  });

  it('a webhook deleted through the webhooks API comes back with the next update', async () => {
    const integration = await create('commerce', commerceBody());
    expect((await admin.del(`/hubs/${hubId}/webhooks/${integration.webhookId}`)).status).toBe(204);
    const updated = (await admin.patch(`/integrations/commerce/${integration.id}`, { label: 'Back' })).body;
    expect(updated.webhookId).not.toBe(integration.webhookId);
    expect((await admin.get(`/hubs/${hubId}/webhooks/${updated.webhookId}`)).body).toMatchObject({ label: 'Commerce integration: Back', handlers: [`sandbox://commerce/${integration.id}`] });
  });

  it('DELETE answers 204 and removes the integration with its webhook', async () => {
    const integration = await create('commerce', commerceBody());
    const res = await admin.del(`/integrations/commerce/${integration.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await admin.get(`/integrations/commerce/${integration.id}`), 404);
    expectError(await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`), 404);
    expectError(await admin.del(`/integrations/commerce/${integration.id}`), 404);
  });
});

describe('marketing integration', () => {
  it('create, get, update (active switches its webhook), delete', async () => {
    const body = marketingBody(hubId, { label: 'Newsletter' });
    const res = await admin.post('/integrations/marketing', body);
    expect(res.status, res.text).toBe(201);
    const integration = res.body;
    expect(res.headers.get('location')).toBe(`${admin.base}/integrations/marketing/${integration.id}`);
    expect(integration).toMatchObject({
      hubId,
      type: 'marketing',
      label: 'Newsletter',
      active: true,
      'marketing-credentials': { username: MASK, password: MASK },
      'cms-credentials': { clientId: MASK, clientSecret: MASK },
      rendering: body.rendering,
      contentAssets: body.contentAssets,
    });
    expect(integration._links.deliveries.href).toBe(`${srv.url}/__sandbox/marketing/${integration.id}/deliveries`);
    expect(res.text).not.toContain('mail-pass');
    expect((await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`)).body).toMatchObject({
      label: 'Marketing integration: Newsletter',
      handlers: [`sandbox://marketing/${integration.id}`],
      active: true,
    });
    expect((await admin.get(`/integrations/marketing/${integration.id}`)).body).toEqual(integration);

    const off = await admin.patch(`/integrations/marketing/${integration.id}`, { active: false, label: 'Old newsletter' });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ active: false, label: 'Old newsletter' });
    expect((await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`)).body).toMatchObject({ label: 'Marketing integration: Old newsletter', active: false });

    expect((await admin.del(`/integrations/marketing/${integration.id}`)).status).toBe(204);
    expectError(await admin.get(`/hubs/${hubId}/webhooks/${integration.webhookId}`), 404);
  });

  it.each(['hubId', 'label', 'active', 'marketing-credentials', 'cms-credentials', 'rendering', 'contentAssets'])('%s is required (400 naming it)', async (field) => {
    const body: Record<string, unknown> = marketingBody();
    delete body[field];
    const err = expectError(await admin.post('/integrations/marketing', body), 400);
    expect(err).toMatchObject({ entity: 'MarketingIntegration', property: field });
  });

  it('label holds at most 120 characters and must not be empty; active must be a boolean', async () => {
    expect((await admin.post('/integrations/marketing', marketingBody(hubId, { label: 'x'.repeat(120) }))).status).toBe(201);
    expect(expectError(await admin.post('/integrations/marketing', marketingBody(hubId, { label: 'x'.repeat(121) })), 400).property).toBe('label');
    expect(expectError(await admin.post('/integrations/marketing', marketingBody(hubId, { label: '  ' })), 400).property).toBe('label');
    expect(expectError(await admin.post('/integrations/marketing', marketingBody(hubId, { active: 'yes' })), 400).property).toBe('active');
    const integration = await create('marketing', marketingBody());
    expect(expectError(await admin.patch(`/integrations/marketing/${integration.id}`, { label: 'y'.repeat(121) }), 400).property).toBe('label');
  });
});

describe('listing', () => {
  it('GET /hubs/{hubId}/integrations pages every integration of the hub, each with its type', async () => {
    const hub = (await createHub(admin)).id;
    const commerce = await create('commerce', commerceBody(hub, { label: 'B commerce' }));
    const marketing = await create('marketing', marketingBody(hub, { label: 'A marketing' }));
    const res = await admin.get(`/hubs/${hub}/integrations?size=1&sort=label,asc`);
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ size: 1, totalElements: 2, totalPages: 2, number: 0 });
    expect(res.body._embedded.integrations.map((i: any) => [i.id, i.type])).toEqual([[marketing.id, 'marketing']]);
    expect(res.body._links.next).toBeDefined();
    const all = (await admin.get(`/hubs/${hub}/integrations`)).body._embedded.integrations;
    expect(all.map((i: any) => [i.id, i.type])).toEqual([
      [commerce.id, 'commerce'],
      [marketing.id, 'marketing'],
    ]);
    expect(all[0]['commerce-credentials']).toEqual({ clientId: MASK, clientSecret: MASK });
    const hubLinks = (await admin.get(`/hubs/${hub}`)).body._links;
    expect(hubLinks.integrations).toEqual({ href: `${admin.base}/hubs/${hub}/integrations{?page,size,sort}`, templated: true });
    expect((await admin.get(`/hubs/${hub}/integrations?sort=secret,asc`)).status).toBe(400);
  });

  it('GET /integrations/commerce?hubId= pages by cursor: {_embedded, cursor}, null on the last page', async () => {
    const hub = (await createHub(admin)).id;
    const made = [];
    for (const label of ['c', 'a', 'b']) made.push(await create('commerce', commerceBody(hub, { label })));
    await create('marketing', marketingBody(hub));
    const first = await admin.get(`/integrations/commerce?hubId=${hub}&size=2&sort=label,asc`);
    expect(first.status).toBe(200);
    expect(first.body._embedded.integrations.map((i: any) => i.label)).toEqual(['a', 'b']);
    expect(typeof first.body.cursor).toBe('string');
    expect(first.body._links.next.href).toContain(`cursor=${first.body.cursor}`);
    const second = await admin.get(`/integrations/commerce?hubId=${hub}&cursor=${first.body.cursor}`);
    expect(second.body._embedded.integrations.map((i: any) => i.label)).toEqual(['c']);
    expect(second.body.cursor).toBeNull();
    expect(second.body._links.next).toBeUndefined();
    const byDefault = (await admin.get(`/integrations/commerce?hubId=${hub}`)).body;
    expect(byDefault._embedded.integrations.map((i: any) => i.id)).toEqual(made.map((i) => i.id));
    expect(byDefault.cursor).toBeNull();
    const marketing = (await admin.get(`/integrations/marketing?hubId=${hub}`)).body._embedded.integrations;
    expect(marketing.map((i: any) => i.type)).toEqual(['marketing']);
  });

  it('hubId is required (400), an unknown hub is 404, a foreign cursor 400, size within 1..100', async () => {
    expect(expectError(await admin.get('/integrations/commerce'), 400).property).toBe('hubId');
    expect(expectError(await admin.get('/integrations/marketing'), 400).property).toBe('hubId');
    expectError(await admin.get(`/integrations/commerce?hubId=${MISSING_ID}`), 404);
    expect(expectError(await admin.get(`/integrations/commerce?hubId=${hubId}&cursor=bm9wZQ`), 400).property).toBe('cursor');
    expect(expectError(await admin.get(`/integrations/commerce?hubId=${hubId}&size=101`), 400).property).toBe('size');
  });
});

describe('permissions: INTEGRATION functional permissions with Hub READ', () => {
  it('read needs INTEGRATION:READ, changes their own permission; links follow; no hub ACL is 404', async () => {
    const integration = await create('commerce', commerceBody());
    const acl = [{ resource: 'hubs' as const, id: hubId, permissions: ['READ'] }];
    const reader = await admin.client(unique('int-reader'), [FN('INTEGRATION', 'READ')], acl);
    const got = await reader.get(`/integrations/commerce/${integration.id}`);
    expect(got.status).toBe(200);
    expect(got.body._links.update).toBeUndefined();
    expect(got.body._links.delete).toBeUndefined();
    expect(got.body._links.self).toBeDefined();
    expect((await reader.get(`/hubs/${hubId}/integrations`)).status).toBe(200);
    expectError(await reader.post('/integrations/commerce', commerceBody()), 403);
    expectError(await reader.patch(`/integrations/commerce/${integration.id}`, { label: 'no' }), 403);
    expectError(await reader.del(`/integrations/commerce/${integration.id}`), 403);

    const none = await admin.client(unique('int-none'), [], acl);
    expectError(await none.get(`/integrations/commerce/${integration.id}`), 403);
    expectError(await none.get(`/integrations/commerce?hubId=${hubId}`), 403);

    const elsewhere = await admin.client(unique('int-elsewhere'), [FN('INTEGRATION', 'READ'), FN('INTEGRATION', 'CREATE')]);
    expectError(await elsewhere.get(`/integrations/commerce/${integration.id}`), 404);
    expectError(await elsewhere.post('/integrations/commerce', commerceBody()), 404);

    const writer = await admin.client(unique('int-writer'), ['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => FN('INTEGRATION', a)), acl);
    const made = await writer.post('/integrations/commerce', commerceBody());
    expect(made.status, made.text).toBe(201);
    expect((await writer.patch(`/integrations/commerce/${made.body.id}`, { label: 'ok' })).status).toBe(200);
    expect((await writer.del(`/integrations/commerce/${made.body.id}`)).status).toBe(204);
  });

  it('no token is 401', async () => {
    expect((await admin.get(`/integrations/commerce?hubId=${hubId}`, { token: null })).status).toBe(401);
  });
});
