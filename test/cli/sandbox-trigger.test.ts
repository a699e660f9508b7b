import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, startServer, unique, type TestServer } from '../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../helpers/content.js';
import { Receiver } from '../helpers/receiver.js';

// cms sandbox trigger through the built binary, against a served sandbox.

describe('cms sandbox trigger', () => {
  const home = new CliHome();
  let srv: TestServer;
  let api: Api;
  let receiver: Receiver;
  let setup: ContentSetup;
  let env: Record<string, string>;

  beforeAll(async () => {
    srv = await startServer();
    api = await new Api(srv.url).login();
    receiver = await new Receiver().start();
    setup = await contentSetup(api);
    env = { CMS_API_URL: srv.base, CMS_AUTH_URL: srv.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
  });
  afterAll(async () => {
    await receiver.stop();
    await srv.stop();
    home.cleanup();
  });

  it('sends a synthetic, signed delivery with --set overrides, to --webhook only', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['edition.published'], handlers: [`${receiver.url}/cli-hook`], secret: 's' })).body;
    const res = await home.run(['sandbox', 'trigger', 'content-item.published', '--hub', setup.hubId, '--item', item.id, '--webhook', hook.id, '--set', 'payload.label=From CLI', '--set', 'payload.n=3', '-o', 'json'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ event: 'content-item.published', synthetic: true, deliveries: 1, webhookId: hook.id });
    const [delivery] = await receiver.waitFor(1, (r) => r.url === '/cli-hook');
    expect(delivery!.headers['x-webhook-synthetic']).toBe('true');
    expect(JSON.parse(delivery!.body)).toMatchObject({ synthetic: true, payload: { id: item.id, label: 'From CLI', n: 3 } });
  });

  it('changes no content: every table but the webhook delivery queue and log is as it was', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.updated'], handlers: [`${receiver.url}/unchanged`], secret: 's' })).body;
    const db = srv.sandbox.service.db;
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]).filter((t) => !/webhook_(deliver|request|attempt)|^tasks$/.test(t));
    const dump = () => Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).all()]));
    const before = dump();
    const res = await home.run(['sandbox', 'trigger', 'content-item.updated', '--hub', setup.hubId, '--item', item.id, '--set', 'payload.label=Not stored'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    await receiver.waitFor(1, (r) => r.url === '/unchanged');
    expect(dump()).toEqual(before);
    expect(tables).toEqual(expect.arrayContaining(['content_items', 'hubs', 'webhooks']));
    expect(hook.id).toBeTruthy();
  });

  it('warns when no webhook subscribes (exit 0, nothing sent)', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const res = await home.run(['sandbox', 'trigger', 'content-item.assigned', '--hub', setup.hubId, '--item', item.id], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain('no active webhook of the hub subscribes to content-item.assigned');
  });

  it('refuses an unknown event, hub, item or webhook and a malformed --set with a clear error and exit code', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const cases: [string[], number, string][] = [
      [['content-item.exploded', '--hub', setup.hubId, '--item', item.id], 2, 'Unknown event'],
      [['content-item.created', '--hub', 'no-such-hub', '--item', item.id], 1, 'no-such-hub'],
      [['content-item.created', '--hub', setup.hubId], 2, '--item'],
      [['content-item.created', '--hub', setup.hubId, '--item', '00000000-0000-0000-0000-000000000000'], 1, '00000000-0000-0000-0000-000000000000'],
      [['content-item.created', '--hub', setup.hubId, '--item', item.id, '--webhook', '000000000000000000000000'], 1, '000000000000000000000000'],
      [['content-item.created', '--hub', setup.hubId, '--item', item.id, '--set', 'payload.x'], 2, 'payload.path=value'],
      [['content-item.created', '--hub', setup.hubId, '--item', item.id, '--set', 'label=x'], 2, 'only fields of the payload'],
    ];
    for (const [args, code, text] of cases) {
      const res = await home.run(['sandbox', 'trigger', ...args], { env });
      expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(code);
      expect(res.stderr, args.join(' ')).toContain(text);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
