import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentType, DynamicContent } from 'dc-management-sdk-js';
import { Api, createHub, startServer, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { createSchema, schemaUri } from '../../helpers/content-model.js';

// Issue 22.5: content type settings as real types carry them. `label` is the only required
// field; icons {size, url}, visualizations {label, templatedUri, default} and cards
// {templatedUri, label?, default?} (the vendor's own types carry cards without a label) are
// accepted and answered back as given, through raw HTTP and the vendor's management SDK.

let srv: TestServer;
let admin: Api;
let hubId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
});
afterAll(async () => srv?.stop());

const register = async (settings: unknown) => {
  const uri = schemaUri();
  await createSchema(admin, hubId, uri);
  return { uri, res: await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings }) };
};

describe('content type settings', () => {
  it('cards without a label, visualizations with default and icons are accepted and answered as given', async () => {
    const settings = {
      label: 'Banner',
      icons: [{ size: 256, url: 'https://img.example.com/banner.png' }],
      visualizations: [{ label: 'Preview', templatedUri: 'https://vis.example.com/?id={{contentItemId}}&vse={{vse.domain}}', default: true }],
      cards: [{ templatedUri: 'https://cards.example.com/banner?api={{vse.domain}}&id={{content.id}}' }, { label: 'Gallery', templatedUri: 'https://cards.example.com/g', default: false }],
    };
    const { res } = await register(settings);
    expect(res.status, res.text).toBe(201);
    expect(res.body.settings).toEqual(settings);
    const fetched = await admin.get(`/content-types/${res.body.id}`);
    expect(fetched.body.settings).toEqual(settings);
    // A PATCH with cards without a label is accepted too.
    const patched = await admin.patch(`/content-types/${res.body.id}`, { settings: { label: 'Banner 2', cards: [{ templatedUri: 'https://cards.example.com/x' }] } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.settings).toEqual({ label: 'Banner 2', cards: [{ templatedUri: 'https://cards.example.com/x' }] });
  });

  it('label alone is enough; a missing label is 400 naming settings.label', async () => {
    expect((await register({ label: 'Only a label' })).res.status).toBe(201);
    expect(expectError((await register({ icons: [] })).res, 400).property).toBe('settings.label');
    // A card still needs where it is served from.
    expect(expectError((await register({ label: 'x', cards: [{ label: 'no uri' }] })).res, 400).property).toBe('settings.cards.0.templatedUri');
  });

  it("the vendor's management SDK registers and reads back a type with label-less cards", async () => {
    const dc = new DynamicContent({ client_id: 'sandbox-admin', client_secret: 'sandbox-secret' }, { apiUrl: `${srv.url}/v2/content`, authUrl: srv.url });
    const hub = await dc.hubs.get(hubId);
    const uri = schemaUri();
    await createSchema(admin, hubId, uri);
    const made = await hub.related.contentTypes.register(new ContentType({ contentTypeUri: uri, settings: { label: 'SDK', cards: [{ templatedUri: 'https://cards.example.com/sdk' }], visualizations: [{ label: 'V', templatedUri: 'https://v.example.com', default: true }] } }));
    const back = await dc.contentTypes.get(made.id!);
    expect(back.settings).toEqual({ label: 'SDK', cards: [{ templatedUri: 'https://cards.example.com/sdk' }], visualizations: [{ label: 'V', templatedUri: 'https://v.example.com', default: true }] });
  });
});
