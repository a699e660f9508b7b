import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, startServer, unique } from '../helpers/server.js';
import { createItem, itemBody } from '../helpers/content.js';
import { assignSlots, createEvent, createSlot, fillSlot, sandboxNow, slotContent, slotSetup, snapshotOf, type SlotSetup } from '../helpers/editions.js';

// cms integration (list, commerce and marketing verbs, commerce live and campaigns) and cms item
// render/graph on the embedded sandbox. Content and a DRAFT edition holding a slot are made first
// over HTTP by a server on the same data directory; the edition is scheduled through the CLI, so
// the commerce integration's webhook reaches the stand-in platform before the command exits.

const DAY = 86_400_000;
const MASK = '********';
const home = new CliHome();
let setup: SlotSetup;
let hero: any;
let slot: any;
let edition: any;

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const api = await new Api(srv.url).login();
    setup = await slotSetup(api);
    hero = await createItem(api, setup.repoId, setup.uri, { label: 'Hero <b>', body: itemBody(setup.uri, { title: 'Winter hero' }) });
    const snapshot = await snapshotOf(api, setup.hubId, hero.id);
    slot = await createSlot(api, setup, 'Landing slot');
    const now = await sandboxNow(api);
    const eventId = (await createEvent(api, setup.hubId)).id;
    edition = (await api.post(`/events/${eventId}/editions`, { name: unique('winter'), start: new Date(now + DAY).toISOString(), end: new Date(now + 2 * DAY).toISOString() })).body;
    const [editionSlot] = await assignSlots(api, edition.id, [slot.id]);
    await fillSlot(api, edition.id, editionSlot.id, slotContent(setup, snapshot.id));
  } finally {
    await srv.stop();
  }
});

afterAll(() => home.cleanup());

const cms = (args: string[]) => home.run(args, { env: { CMS_HUB: setup.hubId } });
const json = <T = any>(args: string[]) => home.json<T>(args, { env: { CMS_HUB: setup.hubId } });
const file = (name: string, value: unknown) => {
  const path = join(home.dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

const commerceFile = () =>
  file('commerce.json', {
    'commerce-credentials': { clientId: 'shop', clientSecret: 'shop-secret' },
    'cms-credentials': { clientId: 'cms', clientSecret: 'cms-secret' },
    'commerce-api': { url: 'https://shop.example.com' },
    rendering: { templateName: 'default' },
  });

describe('cms integration commerce', () => {
  it('create, list, get, update, campaigns and live after scheduling, delete', async () => {
    const created = await json(['integration', 'commerce', 'create', '--body-file', commerceFile(), '--label', 'EU site']);
    expect(created).toMatchObject({ hubId: setup.hubId, type: 'commerce', label: 'EU site', 'commerce-credentials': { clientId: MASK, clientSecret: MASK } });
    expect(JSON.stringify(created)).not.toContain('shop-secret');
    expect((await json(['integration', 'commerce', 'list'])).map((i: any) => i.id)).toEqual([created.id]);
    expect((await json(['integration', 'list'])).map((i: any) => [i.id, i.type])).toEqual([[created.id, 'commerce']]);
    expect((await json(['integration', 'commerce', 'get', created.id])).label).toBe('EU site');

    const updated = await json(['integration', 'commerce', 'update', created.id, '--label', 'US site', '--set', 'rendering.templateName=wide']);
    expect(updated).toMatchObject({ label: 'US site', rendering: { templateName: 'wide' } });
    expect((await json(['webhook', 'get', created.webhookId])).label).toBe('Commerce integration: US site');
    expect((await cms(['integration', 'commerce', 'update', created.id])).exitCode).toBe(2);

    // Scheduling the edition reaches the platform: an evergreen campaign (the edition content does not expire).
    expect((await cms(['edition', 'schedule', edition.id, '--yes', '--ignore-warnings'])).exitCode).toBe(0);
    const campaigns = await json(['integration', 'commerce', 'campaigns', created.id]);
    expect(campaigns).toEqual([expect.objectContaining({ editionId: edition.id, start: edition.start, end: null })]);
    const table = await cms(['integration', 'commerce', 'campaigns', created.id]);
    expect(table.stdout).toContain('never (evergreen)');

    const later = await json(['integration', 'commerce', 'live', created.id, '--slot', slot.id, '--at', '+2d']);
    expect(later.campaign).toMatchObject({ editionId: edition.id, end: null });
    expect(later.content.items).toEqual([expect.objectContaining({ id: hero.id, version: 1, body: expect.objectContaining({ title: 'Winter hero' }) })]);
    const before = await json(['integration', 'commerce', 'live', created.id, '--slot', slot.id, '--at', '2001-01-01T00:00:00Z']);
    expect(before).toMatchObject({ at: '2001-01-01T00:00:00.000Z', campaign: null, content: null });
    expect((await cms(['integration', 'commerce', 'live', created.id])).exitCode).toBe(2);
    expect((await cms(['integration', 'commerce', 'live', created.id, '--slot', slot.id, '--at', 'soon'])).exitCode).toBe(2);

    expect((await cms(['integration', 'commerce', 'delete', created.id])).exitCode).toBe(2);
    expect((await cms(['integration', 'commerce', 'delete', created.id, '--yes'])).exitCode).toBe(0);
    expect((await cms(['integration', 'commerce', 'get', created.id])).exitCode).toBe(1);
    expect((await cms(['webhook', 'get', created.webhookId])).exitCode).toBe(1);
  });
});

describe('cms integration marketing', () => {
  it('create with --active, update --no-active, list, delete', async () => {
    const body = file('marketing.json', {
      'marketing-credentials': { username: 'u', password: 'p' },
      'cms-credentials': { clientId: 'c', clientSecret: 's' },
      rendering: {},
      contentAssets: {},
    });
    const created = await json(['integration', 'marketing', 'create', '--body-file', body, '--label', 'Newsletter', '--active']);
    expect(created).toMatchObject({ type: 'marketing', label: 'Newsletter', active: true, 'marketing-credentials': { username: MASK, password: MASK } });
    expect((await json(['integration', 'marketing', 'update', created.id, '--no-active'])).active).toBe(false);
    expect((await json(['webhook', 'get', created.webhookId])).active).toBe(false);
    expect((await json(['integration', 'marketing', 'list'])).map((i: any) => i.id)).toEqual([created.id]);
    const missing = await cms(['integration', 'marketing', 'create', '--body-file', body, '--label', 'No active flag']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('active');
    expect((await cms(['integration', 'marketing', 'delete', created.id, '--yes'])).exitCode).toBe(0);
    expect(await json(['integration', 'marketing', 'list'])).toEqual([]);
  });
});

describe('cms item render and graph', () => {
  it('render prints the staged HTML (escaped), raw shows the JSON, an unknown template fails', async () => {
    const page = await cms(['item', 'render', hero.id]);
    expect(page.exitCode).toBe(0);
    expect(page.stdout).toMatch(/^<!doctype html>/);
    expect(page.stdout).toContain('<title>Hero &lt;b&gt;</title>');
    expect(page.stdout).toContain('<dd>Winter hero</dd>');
    expect((await cms(['item', 'render', hero.id, '--template', 'raw'])).stdout).toContain('<pre>{\n  &quot;@graph&quot;');
    const unknown = await cms(['item', 'render', hero.id, '--template', 'nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain("No template named 'nope'");
  });

  it('graph prints the delivery graph; a slot shows its edition content once the clock passes the start', async () => {
    const graph = await json(['item', 'graph', hero.id, '--hub', setup.hubId]);
    const iri = 'http://content.cms.amplience.com/';
    expect(graph).toEqual({ '@graph': [{ '@id': `${iri}${hero.id}`, '@type': setup.uri, _meta: { schema: setup.uri, deliveryId: hero.id }, title: 'Winter hero' }], result: [{ '@id': `${iri}${hero.id}` }] });

    expect((await cms(['item', 'render', slot.id])).stdout).not.toContain('Winter hero');
    expect((await cms(['sandbox', 'clock', 'advance', '25h'])).exitCode).toBe(0);
    expect((await cms(['item', 'render', slot.id])).stdout).toContain('<dd>Winter hero</dd>');
    expect((await json(['item', 'graph', slot.id]))['@graph'].map((e: any) => e['@id'])).toEqual([`${iri}${slot.id}`, `${iri}${hero.id}`]);
  });
});
