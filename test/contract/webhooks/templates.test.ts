import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';
import { publishItem } from '../../helpers/search-indexes.js';
import { Receiver } from '../../helpers/receiver.js';
import { expectError } from '../../helpers/assert.js';

// Issue 31.5: custom payloads and handler URLs are Handlebars templates with the service's
// helpers (default, JSONstringify, moment, withDeliveryContentItem), rendered by the Handlebars
// library itself and bounded like every other template.

let srv: TestServer;
let api: Api;
let receiver: Receiver;
let setup: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  receiver = await new Receiver().start();
  setup = await contentSetup(api);
});
afterAll(async () => {
  await receiver.stop();
  await srv.stop();
});

const template = (value: string) => ({ type: 'text/x-handlebars-template', value });
async function createHook(fields: Record<string, unknown>): Promise<any> {
  const res = await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.created'], handlers: [`${receiver.url}/${unique('p')}`], ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
async function requestsOf(hookId: string, count: number): Promise<any[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await api.get(`/hubs/${setup.hubId}/webhooks/${hookId}/requests?limit=100`);
    if (res.body?._embedded?.requests.length >= count) return res.body._embedded.requests;
    if (Date.now() > deadline) throw new Error(`only ${res.body?._embedded?.requests.length} requests recorded: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const pathOf = (hook: any) => new URL(hook.handlers[0]).pathname;

describe('the vendor search-index template', () => {
  it('renders default, withDeliveryContentItem, JSONstringify and moment, to a templated handler URL', async () => {
    const prefix = `/${unique('indexes')}/blog`;
    const hook = await createHook({
      events: ['content-item.published'],
      handlers: [`${receiver.url}${prefix}/{{payload.id}}`],
      customPayload: template(
        `{"locale": "{{default payload.locale "en-US"}}", "objectID": "{{payload.id}}",
{{#withDeliveryContentItem contentItemId=payload.id account="my-account" stagingEnvironment=""}}
  "_meta": {{{JSONstringify _meta}}}, "title": {{{JSONstringify title}}},
  "dateAsTimeStamp": {{{moment blogdate format="X"}}}, "day": "{{moment blogdate format="YYYY-MM-DD[T]HH:mm"}}"
{{/withDeliveryContentItem}}
}`,
      ),
    });
    const blogdate = '2021-03-04T05:06:07.000Z';
    const item = await publishItem(api, setup, { title: 'A "quoted" title', blogdate });
    const [got] = await receiver.waitFor(1, (r) => r.url.startsWith(prefix));
    expect(got!.url).toBe(`${prefix}/${item.id}`);
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({ locale: 'en-US', objectID: item.id, title: 'A "quoted" title', dateAsTimeStamp: Date.parse(blogdate) / 1000, day: '2021-03-04T05:06' });
    expect(body._meta).toMatchObject({ schema: setup.uri, deliveryId: item.id });
    const [logged] = await requestsOf(hook.id, 1);
    expect(logged).toMatchObject({ result: 200, url: `${receiver.url}${prefix}/${item.id}` });
  });

  it('the snapshot form: payload.id is the snapshot, payload.rootContentItem.id its root item (as the vendor\'s index webhooks read them)', async () => {
    const prefix = `/${unique('indexes')}/snap`;
    const hook = await createHook({
      events: ['snapshot.published'],
      handlers: [`${receiver.url}${prefix}/{{payload.id}}`],
      customPayload: template(
        `{"objectID": "{{payload.rootContentItem.id}}", {{#withDeliveryContentItem contentItemId=payload.rootContentItem.id account="my-account" snapshotId=payload.id}} "title": {{{JSONstringify title}}} {{/withDeliveryContentItem}} }`,
      ),
    });
    const item = await publishItem(api, setup, { title: 'From a snapshot' });
    const [got] = await receiver.waitFor(1, (r) => r.url.startsWith(prefix));
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({ objectID: item.id, title: 'From a snapshot' });
    expect(got!.url).toMatch(new RegExp(`^${prefix}/[0-9a-f]{24}$`));
    const [logged] = await requestsOf(hook.id, 1);
    expect(logged).toMatchObject({ result: 200 });
  });

  it('withDeliveryContentItem reads published content, the latest with stagingEnvironment, and an item of another hub not at all', async () => {
    const item = await publishItem(api, setup, { title: 'published title' });
    const latest = await api.patch(`/content-items/${item.id}`, { body: itemBody(setup.uri, { title: 'edited title' }), version: item.version, label: item.label });
    expect(latest.status, latest.text).toBe(200);
    const other = await contentSetup(api);
    const foreign = await publishItem(api, other, { title: 'other hub secret' });
    const hook = await createHook({
      customPayload: template(
        `{"published": "{{#withDeliveryContentItem contentItemId="${item.id}" account="a"}}{{title}}{{/withDeliveryContentItem}}",` +
          ` "staged": "{{#withDeliveryContentItem contentItemId="${item.id}" account="a" stagingEnvironment="x.staging.example.com"}}{{title}}{{/withDeliveryContentItem}}",` +
          ` "foreign": "{{#withDeliveryContentItem contentItemId="${foreign.id}" account="a" stagingEnvironment="s"}}{{title}}{{else}}none{{/withDeliveryContentItem}}",` +
          ` "missing": "{{#withDeliveryContentItem contentItemId="no-such-item" account="a"}}{{title}}{{/withDeliveryContentItem}}"}`,
      ),
    });
    await createItem(api, setup.repoId, setup.uri);
    const [got] = await receiver.waitFor(1, (r) => r.url === pathOf(hook));
    expect(JSON.parse(got!.body)).toEqual({ published: 'published title', staged: 'edited title', foreign: 'none', missing: '' });
  });

  it('the Handlebars built-ins work: #each, #if, #unless, #with, @index, else', async () => {
    const hook = await createHook({
      customPayload: template(
        '{"n":[{{#each payload.body.links}}{{@index}}{{#unless @last}},{{/unless}}{{/each}}],' +
          '"t":"{{#if payload.body.title}}yes{{else}}no{{/if}}","u":"{{#unless payload.body.missing}}absent{{/unless}}",' +
          '"w":"{{#with payload.body}}{{title}}{{/with}}","e":"{{#each payload.body.nothing}}x{{else}}empty{{/each}}","esc":"{{payload.body.title}}"}',
      ),
    });
    const link = (id: string) => ({ _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link' }, contentType: setup.uri, id });
    const target = await createItem(api, setup.repoId, setup.uri);
    await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'a<b', links: [link(target.id), link(target.id), link(target.id)] }) });
    const log = await requestsOf(hook.id, 2);
    expect(log.map((r) => r.error)).toEqual([null, null]);
    const hits = await receiver.waitFor(2, (r) => r.url === pathOf(hook));
    const bodies = hits.map((h) => JSON.parse(h.body));
    expect(bodies).toContainEqual({ n: [0, 1, 2], t: 'yes', u: 'absent', w: 'a&lt;b', e: 'empty', esc: 'a&lt;b' });
  });
});

describe('bad templates', () => {
  it('a template that does not compile is a 400 on create and on update, naming the line', async () => {
    const bad = template('{\n  "a": "{{payload.id}}",\n  {{#if payload.id}}\n  "b": 1\n}');
    const created = expectError(await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.created'], handlers: [`${receiver.url}/x`], customPayload: bad }), 400);
    expect(JSON.stringify(created)).toMatch(/line \d/);
    expect(JSON.stringify(created)).toContain('customPayload');
    const hook = await createHook({});
    const updated = expectError(await api.patch(`/hubs/${setup.hubId}/webhooks/${hook.id}`, { customPayload: template('ok\n{{#each x}}{{/if}}') }), 400);
    expect(JSON.stringify(updated)).toContain('line 2');
    const url = expectError(await api.patch(`/hubs/${setup.hubId}/webhooks/${hook.id}`, { handlers: [`${receiver.url}/{{#if payload.id}}`] }), 400);
    expect(JSON.stringify(url)).toContain('handlers');
    const partial = expectError(await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.created'], handlers: [`${receiver.url}/x`], customPayload: template('{{> secrets}}') }), 400);
    expect(JSON.stringify(partial)).toContain('partials');
  });

  it('a template that grows without bound is cut off: the delivery is recorded failed with the reason, nothing is sent', async () => {
    const nest = (n: number): string => (n === 0 ? 'x' : `{{#each @root.payload.body.links}}${nest(n - 1)}{{/each}}`);
    const hook = await createHook({ customPayload: template(nest(8)) });
    const links = Array.from({ length: 10 }, () => ({ _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link' }, contentType: setup.uri, id: '00000000-0000-0000-0000-000000000000' }));
    const res = await api.post(`/content-repositories/${setup.repoId}/content-items`, { label: unique('item'), body: itemBody(setup.uri, { links }) });
    expect(res.status, res.text).toBe(201);
    const [logged] = await requestsOf(hook.id, 1);
    expect(logged).toMatchObject({ result: 500, responseStatus: null, retryScheduledFor: null });
    expect(logged.error).toMatch(/template.*cut off/);
    expect(receiver.received.filter((r) => r.url === pathOf(hook))).toEqual([]);
  });

  it('no prototype access: constructor, __proto__ and lookup read nothing', async () => {
    const hook = await createHook({ customPayload: template('[{{payload.constructor}}][{{payload.__proto__}}][{{lookup payload "constructor"}}][{{#with payload}}{{constructor.name}}{{/with}}]') });
    await createItem(api, setup.repoId, setup.uri);
    const [got] = await receiver.waitFor(1, (r) => r.url === pathOf(hook));
    expect(got!.body).toBe('[][][][]');
  });
});
