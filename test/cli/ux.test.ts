import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, contentSetup, itemBody, type ContentSetup } from '../helpers/content.js';
import { assignSlots, createSlot, fillSlot, itemWithSnapshot, sandboxNow, slotContent, slotSetup, type SlotSetup } from '../helpers/editions.js';
import { addContent, createEdition, createEvent } from '../helpers/events.js';
import { runInPty } from '../helpers/pty.js';
import { Api, ok, startServer, type TestServer } from '../helpers/server.js';

// What a demanding user's trial of the CLI broke (issue 13): Ctrl-C, the scheduling checklist,
// item graph of an unknown id, slot content properties, and the friction points. Every test runs
// the built binary; prompts run in a pseudo-terminal.

const home = new CliHome();
let srv: TestServer;
let api: Api;
let env: Record<string, string>;
let content: ContentSetup;
let hubName: string;

beforeAll(async () => {
  // Served and embedded (`sandbox`) share one data directory.
  srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  api = await new Api(srv.url).login();
  content = await contentSetup(api);
  hubName = (await ok(api.get(`/hubs/${content.hubId}`))).name;
  const login = await home.run(['login', '--profile', 's', '--api-url', srv.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret', '--hub', hubName]);
  expect(login.exitCode, login.stderr).toBe(0);
  env = { ...home.env, CMS_PROFILE: 's' };
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  home.cleanup();
});

const cms = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) => home.run(args, { ...opts, env: { CMS_PROFILE: 's', ...opts.env } });

describe('Ctrl-C', () => {
  it('stops hub clone while it copies items (embedded sandbox): exit 130, journaled, resumable', async () => {
    const { hubId, repoId, uri } = await contentSetup(api);
    const name = (await ok(api.get(`/hubs/${hubId}`))).name;
    for (let i = 0; i < 300; i++) await ok(api.post(`/content-repositories/${repoId}/content-items`, { label: `item ${i}`, body: itemBody(uri) }));
    const runsDir = join(home.env.CMS_DATA_DIR, 'runs');
    const known = new Set(safeList(runsDir));
    // The embedded sandbox answers in-process: nothing waits on I/O between requests.
    const child = execa(process.execPath, [BIN, 'hub', 'clone', '--from', `sandbox:${name}`, '--to', 'sandbox:ctrl-c-copy', '-o', 'json'], { env: { ...home.env }, reject: false });
    const itemCreates = () => {
      const runId = safeList(runsDir).find((id) => !known.has(id));
      if (!runId) return { runId, count: 0 };
      try {
        const lines = readFileSync(join(runsDir, runId, 'journal.ndjson'), 'utf8').split('\n').filter(Boolean);
        const created = lines.map((l) => JSON.parse(l)).filter((e) => e.resource === 'item' && e.action === 'create');
        return { runId, count: new Set(created.map((e) => e.key)).size };
      } catch {
        return { runId, count: 0 };
      }
    };
    for (let waited = 0; itemCreates().count < 10; waited += 5) {
      if (waited > 60_000) throw new Error('the clone never copied 10 items');
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGINT');
    const res = await child;
    const { runId, count } = itemCreates();
    expect(res.exitCode, String(res.stderr)).toBe(130);
    expect(String(res.stderr)).not.toContain('unexpected failure');
    expect(String(res.stderr)).not.toContain('MaxListenersExceededWarning');
    expect(String(res.stderr)).toContain(`continue it with: cms hub clone --resume ${runId}`);
    // It stopped: only the requests in flight finished after the interrupt, not the other items.
    expect(count).toBeLessThan(150);
    const resumed = await home.run(['hub', 'clone', '--resume', runId!, '-o', 'json'], { timeout: 120_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, failed: 0 });
    // The resumed run's journal holds both parts: every item created once.
    expect(JSON.parse(resumed.stdout).steps.items.create).toBe(300);
  }, 180_000);

  it('Ctrl-C at a prompt exits 130 without an error message', async () => {
    const res = await runInPty(['hub', 'delete', content.hubId], env, [['\\?', '\x03']]);
    expect(res.failed, res.transcript).toBeNull();
    expect(res.exitCode, res.transcript).toBe(130);
    expect(res.transcript).not.toContain('error');
    expect(res.transcript).not.toContain('force closed');
  });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

describe('item graph', () => {
  it('an unknown id is not found (exit 1), a known item answers its graph', async () => {
    const missing = await cms(['item', 'graph', '00000000-0000-4000-8000-000000000000']);
    expect(missing.exitCode, missing.stderr).toBe(1);
    expect(missing.stderr).toContain('No content item or slot 00000000-0000-4000-8000-000000000000');
    expect(missing.stdout).toBe('');
    const known = await ok(api.post(`/content-repositories/${content.repoId}/content-items`, { label: 'graphed', body: itemBody(content.uri) }));
    const res = await cms(['item', 'graph', known.id, '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
  });
});

describe('edition slot-content', () => {
  it("refuses a --property the slot's schema lacks (exit 2, naming its properties); the right one fills the slot", async () => {
    const setup = await slotSetup(api);
    // A slot type whose link property is `hero`, not the default `slot`.
    const heroUri = `${SCHEMA_HOST}/hero-slot-${Date.now()}.json`;
    const link = { allOf: [{ $ref: `http://bigcontent.io/cms/schema/v1/core#/definitions/content-link` }] };
    const doc = { $schema: `http://bigcontent.io/cms/schema/v1/schema#`, id: heroUri, title: 'Hero', type: 'object', allOf: [{ $ref: `http://bigcontent.io/cms/schema/v1/core#/definitions/content` }], properties: { title: { type: 'string' }, hero: link } };
    await ok(api.post(`/hubs/${setup.hubId}/content-type-schemas`, { schemaId: heroUri, body: JSON.stringify(doc), validationLevel: 'SLOT' }));
    const type = await ok(api.post(`/hubs/${setup.hubId}/content-types`, { contentTypeUri: heroUri, settings: { label: 'Hero' } }));
    await ok(api.post(`/content-repositories/${setup.slotRepoId}/content-types`, { contentTypeId: type.id }));
    const slot = await createSlot(api, { ...setup, slotUri: heroUri } as SlotSetup, 'Hero banner');
    const event = await createEvent(api, setup.hubId);
    const edition = await createEdition(api, event.id, { name: 'Slot content' });
    const [editionSlot] = await assignSlots(api, edition.id, [slot.id]);
    const { snapshot } = await itemWithSnapshot(api, setup);

    const refused = await cms(['edition', 'slot-content', edition.id, editionSlot.id, '--snapshot', snapshot.id]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`The slot's schema ${heroUri} has no property 'slot'`);
    expect(refused.stderr).toContain('Its properties: title, hero.');
    expect((await ok(api.get(`/editions/${edition.id}/slots/${editionSlot.id}`))).content.body.slot).toBeUndefined();

    const filled = await cms(['edition', 'slot-content', edition.id, editionSlot.id, '--property', 'hero', '--snapshot', snapshot.id, '-o', 'json']);
    expect(filled.exitCode, filled.stderr).toBe(0);
    expect(JSON.parse(filled.stdout)).toMatchObject({ status: 'VALID', content: { body: { hero: { id: snapshot.id } } } });
  });
});

describe('edition schedule: the checklist has every check the service makes, and asks once', () => {
  const DAY = 86_400_000;
  let setup: SlotSetup;
  let now: number;
  const at = (days: number) => new Date(now + days * DAY).toISOString();
  beforeAll(async () => {
    setup = await slotSetup(api);
    now = await sandboxNow(api);
  });

  /** An event ending in 11 days, with an edition of it (days 2 to 4) holding a snapshot. */
  async function nearTheEnd() {
    const event = await createEvent(api, setup.hubId, { start: at(-1), end: at(11) });
    const edition = await createEdition(api, event.id, { name: 'Near the end', start: at(2), end: at(4) });
    return addContent(api, edition.id, (await itemWithSnapshot(api, setup)).snapshot.id);
  }

  it("a start that moves the edition past its event's end is refused before any confirmation (exit 2)", async () => {
    const edition = await nearTheEnd();
    const res = await runInPty(['edition', 'schedule', edition.id, '--start', '+10d'], env, []);
    expect(res.exitCode, res.transcript).toBe(2);
    expect(res.transcript).toContain("error: --start +10d moves 'Near the end' out of its event: it ends at");
    expect(res.transcript).toContain(`start it between ${at(-1)} and ${at(9)}`);
    expect(res.transcript).not.toContain("Schedule 'Near the end'");
    expect(await ok(api.get(`/editions/${edition.id}`))).toMatchObject({ publishingStatus: 'DRAFT', start: edition.start });
  });

  it('the checklist shows the event window, and the date question refuses a date outside it', async () => {
    const edition = await nearTheEnd();
    const res = await runInPty(['edition', 'schedule', edition.id], env, [
      ['Publish at', '+10d\r'],
      ['would not fit its event', '\x03'],
    ]);
    expect(res.failed, res.transcript).toBeNull();
    expect(res.transcript).toContain("✓ within its event's dates");
    expect(res.transcript).toMatch(/The edition would not fit its event: it ends at \S+, after event '[^']+' ends \(/);
    expect(res.exitCode, res.transcript).toBe(130);
    expect((await ok(api.get(`/editions/${edition.id}`))).publishingStatus).toBe('DRAFT');
  });

  /** Two overlapping editions sharing a slot: scheduling one has a slot collision warning. */
  async function colliding(name: string) {
    const event = await createEvent(api, setup.hubId, { start: at(-1), end: at(60) });
    const slot = await createSlot(api, setup);
    const [mine, other] = [await createEdition(api, event.id, { name, start: at(20), end: at(22) }), await createEdition(api, event.id, { start: at(21), end: at(23) })];
    for (const e of [mine, other]) {
      const [held] = await assignSlots(api, e.id, [slot.id]);
      await fillSlot(api, e.id, held.id, slotContent(setup, (await itemWithSnapshot(api, setup)).snapshot.id));
    }
    return mine;
  }

  it('with a warning it asks once, and schedules', async () => {
    const mine = await colliding('Warned');
    const res = await runInPty(['edition', 'schedule', mine.id], env, [
      ['Publish at', '\r'],
      ["Schedule 'Warned' to publish at [^\n]*, despite the warning above\\?", 'y\r'],
    ]);
    expect(res.failed, res.transcript).toBeNull();
    expect(res.exitCode, res.transcript).toBe(0);
    expect(res.transcript).toContain('! no slot collisions');
    expect(res.transcript).not.toContain('Schedule anyway');
    expect(res.transcript).not.toContain('Scheduling was refused');
    expect((await ok(api.get(`/editions/${mine.id}`))).publishingStatus).toBe('SCHEDULED');
  });

  it('declining exits 0 with "not scheduled" and changes nothing', async () => {
    const mine = await ok(api.get(`/editions/${(await colliding('Declined')).id}`));
    const res = await runInPty(['edition', 'schedule', mine.id], env, [
      ['Publish at', '\r'],
      ["Schedule 'Declined'", 'n\r'],
    ]);
    expect(res.failed, res.transcript).toBeNull();
    expect(res.exitCode, res.transcript).toBe(0);
    expect(res.transcript).toContain("Not scheduled: 'Declined' is unchanged.");
    expect(res.transcript).not.toContain('error');
    expect(await ok(api.get(`/editions/${mine.id}`))).toMatchObject({ publishingStatus: 'DRAFT', lastModifiedDate: mine.lastModifiedDate });
  });
});

describe('consistent flags', () => {
  it('folder create takes --name; the bare name still works with a deprecation warning', async () => {
    const made = await cms(['folder', 'create', '--name', 'Campaigns', '--repo', content.repoId, '-o', 'json']);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).name).toBe('Campaigns');
    expect(made.stderr).toBe('');
    const old = await cms(['folder', 'create', 'Legacy', '--repo', content.repoId, '-o', 'json']);
    expect(old.exitCode, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout).name).toBe('Legacy');
    expect(old.stderr).toContain('warning: `cms folder create <name>` is deprecated; use `cms folder create --name "Legacy"`');
    const missing = await cms(['folder', 'create', '--repo', content.repoId]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Missing the folder name: --name <name>');
  });

  it('item copy: --to-repo is the form; --repo works with a deprecation warning', async () => {
    const source = await ok(api.post(`/content-repositories/${content.repoId}/content-items`, { label: 'to copy', body: itemBody(content.uri) }));
    const copied = await cms(['item', 'copy', source.id, '--to-repo', content.repoId, '-o', 'json']);
    expect(copied.exitCode, copied.stderr).toBe(0);
    expect(copied.stderr).not.toContain('deprecated');
    const old = await cms(['item', 'copy', source.id, '--repo', content.repoId, '-o', 'json']);
    expect(old.exitCode, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout).label).toBe('to copy');
    expect(old.stderr).toContain(`warning: --repo is deprecated; use --to-repo (cms item copy <item> --to-repo ${content.repoId})`);
  });
});

describe('hints name cms commands', () => {
  it('a missing module names `cms admin enable`, not an API call', async () => {
    const { hubId } = await contentSetup(api);
    const index = await cms(['index', 'create', '--hub', hubId, '--suffix', 'articles', '--label', 'Articles']);
    expect(index.exitCode).toBe(2);
    expect(index.stderr).toContain('Enable it with `cms admin enable search-index`');
    expect(index.stderr).not.toMatch(/POST \/|\/admin\/hubs/);
    const keyed = await cms(['item', 'create', '--hub', hubId, '--repo', content.repoId, '--label', 'k', '--schema', content.uri, '--set', 'body.title=T', '--set', 'body._meta.deliveryKey=home']);
    expect(keyed.exitCode).toBe(2);
    expect(keyed.stderr).toContain('Enable it with `cms admin enable content-delivery-2`');
    expect(keyed.stderr).not.toMatch(/POST \/|\/admin\/hubs/);
  });

  it('the scheduling checklist names the cms command that fixes each problem', async () => {
    const { hubId } = await contentSetup(api);
    const event = await createEvent(api, hubId);
    const edition = await createEdition(api, event.id, { name: 'Empty' });
    const res = await runInPty(['edition', 'schedule', edition.id], env, []);
    expect(res.exitCode, res.transcript).toBe(1);
    expect(res.transcript).toContain(`fix: assign a slot (cms edition slots ${edition.id} --add <slot>) or add a snapshot (cms edition content ${edition.id} --add-snapshot <snapshot>)`);
    expect(res.transcript).not.toMatch(/POST \//);
  });
});

describe('prompts that could not be asked', () => {
  it('the hint says what prevented the prompt: --no-input, CI, stdin not a terminal', async () => {
    const cases: [string[], Record<string, string>, string, boolean][] = [
      [['--no-input'], {}, 'Not asked: --no-input was given.', true],
      [[], { CI: 'true' }, 'Not asked: CI is set (CI=true).', true],
      [[], {}, 'Not asked: stdin is not a terminal.', false],
    ];
    for (const [flags, extra, hint, pty] of cases) {
      const args = ['hub', 'delete', content.hubId, ...flags];
      const transcript = pty ? (await runInPty(args, { ...env, ...extra }, [])).transcript : (await cms(args, { env: extra })).stderr;
      expect(transcript).toContain('Pass --yes to confirm.');
      expect(transcript).toContain(hint);
    }
    const schedule = await runInPty(['edition', 'schedule', '--yes'], env, []);
    expect(schedule.transcript).toContain('not asked: --yes was given.');
  });
});

describe('edition preview', () => {
  it('an edition without a preview points to --create (exit 1)', async () => {
    const event = await createEvent(api, content.hubId);
    const edition = await createEdition(api, event.id, { name: 'Unpreviewed' });
    const res = await cms(['edition', 'preview', edition.id]);
    expect(res.exitCode, res.stderr).toBe(1);
    expect(res.stderr).toContain("error: Edition 'Unpreviewed' has no preview");
    expect(res.stderr).toContain(`Create one: cms edition preview ${edition.id} --create`);
  });
});

describe('job list', () => {
  it("without --snapshot lists the hub's publishing jobs", async () => {
    const { hubId, repoId, uri } = await contentSetup(api);
    const jobs: string[] = [];
    for (const label of ['one', 'two']) {
      const made = await ok(api.post(`/content-repositories/${repoId}/content-items`, { label, body: itemBody(uri) }));
      const snapshot = await ok(api.post(`/hubs/${hubId}/snapshots`, { comment: label, createdFrom: 'content-item', type: 'USER', contentRoot: made.id }));
      jobs.push((await ok(api.post(`/snapshots/${snapshot.id}/publishing-jobs`, { scheduledDate: new Date(Date.now() + 86_400_000 * 400).toISOString() }))).id);
    }
    const res = await cms(['job', 'list', '--hub', hubId, '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).map((j: { id: string }) => j.id).sort()).toEqual([...jobs].sort());
    const quiet = await cms(['job', 'list', '--hub', hubId, '-q']);
    expect(quiet.stdout.trim().split('\n').sort()).toEqual([...jobs].sort());
  });
});

describe('cms api --query', () => {
  it('on a collection that holds its items under _embedded, a query that finds nothing says where they are', async () => {
    const res = await cms(['api', 'GET', '/hubs', '--query', '[].name']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain("warning: --query found nothing: it applies to the answer as sent, a collection whose items are under _embedded.hubs. Try --query '_embedded.hubs[].name'");
    const fixed = await cms(['api', 'GET', '/hubs', '--query', '_embedded.hubs[].name']);
    expect(fixed.stdout.split('\n')).toContain(hubName);
    expect(fixed.stderr).toBe('');
    const paginated = await cms(['api', 'GET', '/hubs', '--paginate', '--query', '[].name']);
    expect(paginated.stdout.split('\n')).toContain(hubName);
    const hyphen = await cms(['api', 'GET', `/hubs/${content.hubId}/content-repositories`, '--query', '[].name']);
    expect(hyphen.stderr).toContain(`Try --query '_embedded."content-repositories"[].name'`);
    const help = await cms(['api', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--query applies to the answer as sent: a collection holds its items under _embedded.<key>');
  });
});
