import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { runInPty, KEY } from '../helpers/pty.js';
import { Api, startServer, type TestServer } from '../helpers/server.js';
import { assignSlots, createSlot, fillSlot, itemWithSnapshot, slotContent, slotSetup, type SlotSetup } from '../helpers/editions.js';
import { addContent, createEdition, createEvent, in2099, schedule } from '../helpers/events.js';
import { Context } from '../../src/cli/context.js';
import { CliError, ExitCode, UsageError } from '../../src/core/errors.js';
import type { ApiClient } from '../../src/core/client.js';
import { scheduleEdition, type Prompts, type ScheduleRequest } from '../../src/ops/schedule-edition.js';

// `cms edition schedule`, guided. The flow (src/ops/schedule-edition.ts) runs in-process with
// scripted answers against a served sandbox; the real binary runs in a pseudo-terminal with the
// real prompts. Both share one data directory.

const home = new CliHome();
let srv: TestServer;
let api: Api;
let client: ApiClient;
let context: Context;

beforeAll(async () => {
  srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  api = await new Api(srv.url).login();
  const env = { CMS_API_URL: srv.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret', CMS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'cms-schedule-')) };
  context = new Context({ output: 'json', color: false, debug: false, input: false }, env);
  client = await context.client();
});

afterAll(async () => {
  await context?.close();
  await srv?.stop();
  home.cleanup();
});

type Kind = 'select' | 'input' | 'confirm';
interface Step {
  kind: Kind;
  message: RegExp;
  answer: (question: any) => unknown;
}

/** Prompts that answer from a script, in order, and fail on any question the script does not expect. */
class ScriptedPrompts implements Prompts {
  readonly asked: string[] = [];
  constructor(private readonly script: Step[]) {}
  private async next(kind: Kind, question: { message: string }): Promise<any> {
    this.asked.push(`${kind}: ${question.message}`);
    const step = this.script.shift();
    if (!step || step.kind !== kind || !step.message.test(question.message)) throw new Error(`unexpected ${kind} question: ${question.message}`);
    return step.answer(question);
  }
  select<T>(question: { message: string }): Promise<T> {
    return this.next('select', question);
  }
  input(question: { message: string }): Promise<string> {
    return this.next('input', question);
  }
  confirm(question: { message: string }): Promise<boolean> {
    return this.next('confirm', question);
  }
}

const choose = (name: string) => (q: { choices: { name: string; value: unknown }[] }) => {
  const found = q.choices.find((c) => c.name.startsWith(`${name} (`));
  if (!found) throw new Error(`no choice '${name}' among ${q.choices.map((c) => c.name).join(', ')}`);
  return found.value;
};
const step = (kind: Kind, message: RegExp, answer: Step['answer']): Step => ({ kind, message, answer });

/** Runs the flow; answers null means no terminal. Returns the result or the error, and what it said. */
async function run(setup: SlotSetup, request: ScheduleRequest, prompts: ScriptedPrompts | null) {
  const said: string[] = [];
  const deps = { client, prompts, say: (line: string) => said.push(line), hubId: async () => setup.hubId, eventId: async (value: string) => value };
  try {
    return { result: await scheduleEdition(deps, request), said };
  } catch (error) {
    return { error: error as CliError, said };
  }
}

/** A DRAFT edition of the event holding one new snapshot. */
async function editionWithSnapshot(setup: SlotSetup, eventId: string, fields: Record<string, unknown>) {
  const edition = await createEdition(api, eventId, fields);
  const { snapshot } = await itemWithSnapshot(api, setup);
  return addContent(api, edition.id, snapshot.id);
}

describe('the guided flow (scripted answers)', () => {
  let setup: SlotSetup;
  beforeAll(async () => {
    setup = await slotSetup(api);
  });

  it('picks the event and the DRAFT edition, lists every problem with its fix, and stops before changing anything', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Checked' });
    const archived = await createEvent(api, setup.hubId, { name: 'Gone' });
    await api.post(`/events/${archived.id}/archive`, {});
    // A scheduled edition holding slot X, and the edition to check: slot X with an empty link
    // (INVALID, and a collision) and one item at two versions (a conflict).
    const slot = await createSlot(api, setup, 'Home hero');
    const scheduled = await createEdition(api, event.id, { name: 'Already on', start: in2099(3), end: in2099(4) });
    const [held] = await assignSlots(api, scheduled.id, [slot.id]);
    await fillSlot(api, scheduled.id, held.id, slotContent(setup, (await itemWithSnapshot(api, setup)).snapshot.id));
    await schedule(api, (await api.get(`/editions/${scheduled.id}`)).body);
    const target = await createEdition(api, event.id, { name: 'Target', start: in2099(3, 10), end: in2099(3, 20) });
    const [empty] = await assignSlots(api, target.id, [slot.id]);
    await fillSlot(api, target.id, empty.id, slotContent(setup, null));
    const { item, snapshot: v1 } = await itemWithSnapshot(api, setup);
    await api.patch(`/content-items/${item.id}`, { version: 1, body: { _meta: { schema: setup.uri }, title: 'Changed' } });
    const v2 = (await api.post(`/hubs/${setup.hubId}/snapshots`, { comment: 'v2', createdFrom: 'content-item', type: 'USER', contentRoot: item.id })).body;
    await addContent(api, target.id, v1.id);
    const before = await addContent(api, target.id, v2.id);

    let eventChoices: string[] = [];
    let editionChoices: string[] = [];
    const prompts = new ScriptedPrompts([
      step('select', /^Event$/, (q) => ((eventChoices = q.choices.map((c: any) => c.name)), choose('Checked')(q))),
      step('select', /^Edition to schedule$/, (q) => ((editionChoices = q.choices.map((c: any) => c.name)), choose('Target')(q))),
    ]);
    const { error, said } = await run(setup, {}, prompts);

    expect(eventChoices.some((c) => c.startsWith('Checked ('))).toBe(true);
    expect(eventChoices.some((c) => c.startsWith('Gone ('))).toBe(false);
    expect(editionChoices).toEqual([`Target (${in2099(3, 10)} – ${in2099(3, 20)})`]);
    expect(said).toEqual(
      expect.arrayContaining([
        `Checking 'Target' (${in2099(3, 10)} – ${in2099(3, 20)}):`,
        "  ✓ event 'Checked' is active",
        '  ✓ has content',
        `  ✗ every slot is VALID: 1 INVALID slot(s): Home hero (${slot.id})`,
        `  ✗ no unresolved conflicts: 1 item(s) at different versions: ${item.label} (versions 1, 2)`,
        "  ! no slot collisions: Home hero is also in 'Already on'",
        '  ✓ starts in the future',
        `  ! no scheduled edition overlaps it: 'Already on' (SCHEDULED, ${in2099(3)} – ${in2099(4)})`,
      ]),
    );
    expect(said).toContain(`      fix: choose a version for each: cms edition resolve ${target.id} --item <item> --version <n>`);
    expect(error).toBeInstanceOf(CliError);
    expect(error!.exitCode).toBe(ExitCode.FAILURE);
    expect(error!.message).toBe("'Target' cannot be scheduled yet: every slot is VALID; no unresolved conflicts");
    // No date asked, nothing changed.
    expect(prompts.asked).toEqual(['select: Event', 'select: Edition to schedule']);
    const after = (await api.get(`/editions/${target.id}`)).body;
    expect(after).toMatchObject({ publishingStatus: 'DRAFT', start: before.start, lastModifiedDate: before.lastModifiedDate });
  });

  it('an archived event and an empty edition are named with what to do', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Closing' });
    const edition = await createEdition(api, event.id, { name: 'Nothing in it' });
    await api.post(`/events/${event.id}/archive`, {});
    const { error, said } = await run(setup, { edition: edition.id }, new ScriptedPrompts([]));
    expect(said).toEqual(
      expect.arrayContaining([
        "  ✗ event 'Closing' is active: the event is archived: its editions cannot be scheduled",
        '  ✗ has content: the edition has no slot and no content snapshot',
        `      fix: assign a slot (cms edition slots ${edition.id} --add <slot>) or add a snapshot (cms edition content ${edition.id} --add-snapshot <snapshot>)`,
      ]),
    );
    expect(error!.exitCode).toBe(ExitCode.FAILURE);
  });

  it('confirms a new start date, moves the edition (keeping its length), schedules it and shows the job', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Summer' });
    const edition = await editionWithSnapshot(setup, event.id, { name: 'Launch', start: in2099(6), end: in2099(6, 3) });
    const validations: unknown[] = [];
    const prompts = new ScriptedPrompts([
      step('select', /^Event$/, choose('Summer')),
      step('select', /^Edition to schedule$/, choose('Launch')),
      step('input', /^Publish at/, async (q) => {
        expect(q.default).toBe(in2099(6));
        validations.push(await q.validate('soon'), await q.validate('-1d'), await q.validate(in2099(6, 10)));
        return in2099(6, 10);
      }),
      step('confirm', /^Schedule 'Launch' to publish at/, (q) => {
        expect(q.message).toBe(`Schedule 'Launch' to publish at ${in2099(6, 10)} (moved from ${in2099(6)}; ends ${in2099(6, 12)})?`);
        return true;
      }),
    ]);
    const { result, error, said } = await run(setup, {}, prompts);
    expect(error).toBeUndefined();
    expect(validations).toEqual(["The date 'soon' is not a date", 'The edition must start after now', true]);
    expect(result!.edition).toMatchObject({ id: edition.id, publishingStatus: 'SCHEDULED', start: in2099(6, 10), end: in2099(6, 12) });
    expect(result!.job).toEqual({ id: result!.edition.publishingJobId, state: 'WAITING', scheduledDate: in2099(6, 10) });
    expect(said).toEqual(expect.arrayContaining([`Moved 'Launch' to ${in2099(6, 10)} – ${in2099(6, 12)}.`, `'Launch' is SCHEDULED: publishing job ${result!.job!.id} is WAITING, due ${in2099(6, 10)}.`]));
    expect(said).toContain(`With the new dates 'Launch' (${in2099(6, 10)} – ${in2099(6, 12)}):`);
  });

  it('declining the confirmation changes nothing, and is not an error', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Autumn' });
    const edition = await editionWithSnapshot(setup, event.id, { name: 'Maybe', start: in2099(9), end: in2099(9, 2) });
    const prompts = new ScriptedPrompts([
      step('input', /^Publish at/, () => in2099(9, 5)),
      step('confirm', /^Schedule 'Maybe'/, () => false),
    ]);
    const { result, error } = await run(setup, { edition: edition.id }, prompts);
    expect(error).toBeUndefined();
    expect(result!.scheduled).toBe(false);
    expect((await api.get(`/editions/${edition.id}`)).body).toMatchObject({ publishingStatus: 'DRAFT', start: in2099(9), lastModifiedDate: edition.lastModifiedDate });
  });

  it('warnings the checklist showed are accepted with the one confirmation', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Winter' });
    const slot = await createSlot(api, setup, 'Shared banner');
    const [mine, other] = [await createEdition(api, event.id, { name: 'Mine', start: in2099(11), end: in2099(11, 5) }), await createEdition(api, event.id, { name: 'Other', start: in2099(11, 2), end: in2099(11, 6) })];
    for (const e of [mine, other]) {
      const [held] = await assignSlots(api, e.id, [slot.id]);
      await fillSlot(api, e.id, held.id, slotContent(setup, (await itemWithSnapshot(api, setup)).snapshot.id));
    }
    const prompts = new ScriptedPrompts([
      step('input', /^Publish at/, (q) => q.default),
      step('confirm', /^Schedule 'Mine' to publish at .*, despite the warning above\?$/, () => true),
    ]);
    const { result, said } = await run(setup, { edition: mine.id }, prompts);
    expect(said).toContain("  ! no slot collisions: Shared banner is also in 'Other'");
    expect(said.find((l) => l.startsWith('Scheduling was refused:'))).toBeUndefined();
    expect(result!.edition.publishingStatus).toBe('SCHEDULED');
  });
});

describe('without prompts (--yes, CI, --no-input, no terminal)', () => {
  let setup: SlotSetup;
  beforeAll(async () => {
    setup = await slotSetup(api);
  });

  it('the edition is required: a usage error that names it', async () => {
    const { error } = await run(setup, { event: 'anything' }, null);
    expect(error).toBeInstanceOf(UsageError);
    expect(error!.exitCode).toBe(ExitCode.USAGE);
    expect(error!.message).toBe('Missing the edition to schedule: <edition>');
  });

  it('a refusal lists every problem with level and code (exit 1), and a moved edition moves back', async () => {
    const event = await createEvent(api, setup.hubId);
    const edition = await createEdition(api, event.id, { start: in2099(5), end: in2099(5, 2) });
    const { error, said } = await run(setup, { edition: edition.id, start: in2099(5, 20) }, null);
    expect(error!.exitCode).toBe(ExitCode.FAILURE);
    expect(error!.message).toBe('Scheduling was refused:\n  ERROR EDITION_IS_EMPTY: The edition has no slot and no content snapshot');
    expect(error!.hint).toBe('Fix the errors and run again.');
    expect(said).toEqual([`Moved '${edition.name}' to ${in2099(5, 20)} – ${in2099(5, 21)}.`, `Moved '${edition.name}' to ${in2099(5)} – ${in2099(5, 2)}.`]);
    expect((await api.get(`/editions/${edition.id}`)).body).toMatchObject({ start: in2099(5), end: in2099(5, 2), publishingStatus: 'DRAFT' });
  });

  it('warnings alone fail (exit 1) and suggest --ignore-warnings, which schedules', async () => {
    const event = await createEvent(api, setup.hubId);
    const slot = await createSlot(api, setup, 'Twice');
    const editions = [await createEdition(api, event.id, { start: in2099(8), end: in2099(8, 5) }), await createEdition(api, event.id, { start: in2099(8, 1), end: in2099(8, 3) })];
    for (const e of editions) {
      const [held] = await assignSlots(api, e.id, [slot.id]);
      await fillSlot(api, e.id, held.id, slotContent(setup, (await itemWithSnapshot(api, setup)).snapshot.id));
    }
    const refused = await run(setup, { edition: editions[0].id }, null);
    expect(refused.error!.exitCode).toBe(ExitCode.FAILURE);
    expect(refused.error!.message).toMatch(/^Scheduling was refused:\n {2}WARNING EDITION_CONTAINS_SLOT_COLLISIONS: /);
    expect(refused.error!.hint).toBe('Only warnings: schedule anyway with --ignore-warnings.');
    const { result } = await run(setup, { edition: editions[0].id, ignoreWarnings: true }, null);
    expect(result!.edition.publishingStatus).toBe('SCHEDULED');
  });

  it('an edition that is not a DRAFT is refused before anything else', async () => {
    const event = await createEvent(api, setup.hubId);
    const scheduled = await schedule(api, await editionWithSnapshot(setup, event.id, { start: in2099(10), end: in2099(10, 2) }));
    const { error } = await run(setup, { edition: scheduled.id }, null);
    expect(error!.exitCode).toBe(ExitCode.FAILURE);
    expect(error!.message).toBe(`Edition '${scheduled.name}' is SCHEDULED`);
    expect(error!.hint).toBe(`Unschedule it first: cms edition unschedule ${scheduled.id}`);
  });
});

describe('the real binary in a pseudo-terminal', () => {
  let setup: SlotSetup;
  let hubName: string;
  beforeAll(async () => {
    setup = await slotSetup(api);
    hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  });
  const env = () => ({ ...home.env, CMS_HUB: hubName });

  it('guides the planner: picks, checklist, new date, confirmation, then the scheduled edition and its job', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Terminal event' });
    await editionWithSnapshot(setup, event.id, { name: 'First', start: in2099(3), end: in2099(3, 2) });
    const second = await editionWithSnapshot(setup, event.id, { name: 'Second', start: in2099(5), end: in2099(5, 2) });
    const res = await runInPty(['edition', 'schedule'], env(), [
      ['Event', KEY.enter],
      ['Edition to schedule', KEY.down + KEY.enter],
      ['Publish at', `${in2099(5, 10)}${KEY.enter}`],
      ["Schedule 'Second' to publish at", KEY.enter],
    ]);
    expect(res.failed, res.transcript).toBeNull();
    expect(res.exitCode, res.transcript).toBe(0);
    expect(res.transcript).toContain("Checking 'Second'");
    expect(res.transcript).toContain('✓ has content');
    expect(res.transcript).toContain('✓ no scheduled edition overlaps it');
    expect(res.transcript).toMatch(/'Second' is SCHEDULED: publishing job [0-9a-f]{24} is WAITING/);
    const after = (await api.get(`/editions/${second.id}`)).body;
    expect(after).toMatchObject({ publishingStatus: 'SCHEDULED', start: in2099(5, 10), end: in2099(5, 11) });
    expect(res.transcript).toContain(after.publishingJobId);
  });

  it('an edition with a problem shows the checklist and exits 1 before any question', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'Empty event' });
    const edition = await createEdition(api, event.id, { name: 'Empty' });
    const res = await runInPty(['edition', 'schedule', edition.id], env(), []);
    expect(res.exitCode, res.transcript).toBe(1);
    expect(res.transcript).toContain('✗ has content: the edition has no slot and no content snapshot');
    expect(res.transcript).toContain("error: 'Empty' cannot be scheduled yet: has content");
    expect(res.transcript).not.toContain('Publish at');
  });

  it('never prompts with CI set, with --yes or without a terminal: the missing edition is a usage error (exit 2)', async () => {
    for (const [args, extra] of [[['edition', 'schedule'], { CI: 'true' }], [['edition', 'schedule', '--yes'], {}], [['edition', 'schedule', '--no-input'], {}]] as const) {
      const res = await runInPty([...args], { ...env(), ...extra }, []);
      expect(res.exitCode, res.transcript).toBe(2);
      expect(res.transcript).toContain('error: Missing the edition to schedule: <edition>');
      expect(res.transcript).not.toContain('? Event');
    }
    const piped = await home.run(['edition', 'schedule'], { env: { CMS_HUB: hubName } });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('error: Missing the edition to schedule: <edition>');
  });
});
