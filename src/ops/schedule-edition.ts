// Scheduling an edition, guided. On a terminal it asks for what the command line left out (the
// event, the DRAFT edition, the start date), shows every precondition with what to fix, and asks
// before it changes anything. Without prompts (--yes, CI, --no-input, no terminal) missing values
// are a usage error. Prompt functions are injected, so the flow runs the same under a test.
import type { IO } from '../cli/io.js';
import { visible } from '../output/visible.js';
import type { ApiClient } from '../core/client.js';
import { ApiError, CliError, ExitCode, UsageError, type ApiErrorEntry } from '../core/errors.js';
import { resolveDate, serviceNow } from '../cli/dates.js';
import { IN_PUBLICATION, blockingChecks, overlapsOf, preconditions, timeChecks, windowProblem, type Check } from './schedule-checks.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

/** The three questions the flow asks (the @inquirer/prompts signatures it uses). */
export interface Prompts {
  select<T>(question: { message: string; choices: Choice<T>[] }): Promise<T>;
  input(question: { message: string; default?: string; validate?: (value: string) => Promise<string | boolean> }): Promise<string>;
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
}

export interface ScheduleDeps {
  client: ApiClient;
  /** null: never ask (missing values are a usage error). */
  prompts: Prompts | null;
  /** Why prompts is null (--yes, --no-input, CI, no terminal), for the hint. */
  noPromptReason?: string;
  /** Chatter for the planner (stderr). */
  say(line: string): void;
  /** The hub to pick an event from. */
  hubId(): Promise<string>;
  /** An event id from an id or a name. */
  eventId(value: string): Promise<string>;
}

export interface ScheduleRequest {
  edition?: string;
  event?: string;
  /** A date flag value (ISO or +duration); the edition moves there, keeping its length. */
  start?: string;
  ignoreWarnings?: boolean;
}

interface Links {
  _links?: Record<string, { href: string }>;
}

export interface EditionView extends Links {
  id: string;
  name: string;
  eventId: string;
  start: string;
  end: string;
  publishingStatus: string;
  publishingJobId: string | null;
  status: string;
  lastModifiedDate: string;
}

interface EventView extends Links {
  id: string;
  name: string;
  start: string;
  end: string;
  status: string;
}

export interface ScheduleResult {
  edition: EditionView;
  /** false when the planner declined (nothing changed). */
  scheduled: boolean;
  job?: { id: string; state: string; scheduledDate: string };
}

/**
 * Picks (or takes) the edition, checks it, settles the start date, schedules it and shows the
 * result. Nothing changes before the planner confirms, and a refused schedule leaves the edition
 * where it was (a moved edition moves back).
 */
export async function scheduleEdition(deps: ScheduleDeps, request: ScheduleRequest): Promise<ScheduleResult> {
  const edition = await draftToSchedule(deps, request);
  // The checklist and the questions are for a planner at a terminal; without one, the service's
  // answer to the schedule request lists every problem.
  const review = deps.prompts ? await reviewPreconditions(deps, edition) : null;
  const event = review?.event ?? (request.start !== undefined ? await deps.client.get<EventView>(`/events/${edition.eventId}`) : null);
  const window = await chooseWindow(deps, edition, request.start, event);
  let accepted = new Set<string>();
  if (review) {
    const confirmed = await confirmSchedule(deps, edition, window, review);
    if (!confirmed) return notScheduled(deps, edition);
    accepted = confirmed.accepted;
  }
  const moved = window.start === edition.start ? edition : await moveTo(deps, edition, window);
  let scheduled: boolean;
  try {
    scheduled = await submit(deps, moved, request.ignoreWarnings ?? false, accepted);
  } catch (err) {
    await moveBack(deps, moved, edition);
    throw err;
  }
  if (!scheduled) {
    await moveBack(deps, moved, edition);
    return notScheduled(deps, edition);
  }
  return result(deps, edition.id);
}

async function moveBack(deps: ScheduleDeps, moved: EditionView, edition: EditionView): Promise<void> {
  if (moved !== edition) await moveTo(deps, moved, edition).catch(() => deps.say(`Could not move '${edition.name}' back to ${edition.start}; check its dates.`));
}

/** The planner declined: nothing changed, and that is not an error (exit 0). */
async function notScheduled(deps: ScheduleDeps, edition: EditionView): Promise<ScheduleResult> {
  return { edition: await deps.client.get<EditionView>(`/editions/${edition.id}`), scheduled: false };
}

async function draftToSchedule(deps: ScheduleDeps, request: ScheduleRequest): Promise<EditionView> {
  const editionId = request.edition ?? (await pickEdition(deps, request.event));
  const edition = await deps.client.get<EditionView>(`/editions/${editionId}`);
  if (edition.publishingStatus === 'DRAFT' && edition.status === 'ACTIVE') return edition;
  const hint = IN_PUBLICATION.has(edition.publishingStatus) ? `Unschedule it first: cms edition unschedule ${edition.id}` : 'Only a DRAFT edition that is not archived can be scheduled.';
  throw new CliError(`Edition '${edition.name}' is ${edition.status === 'ARCHIVED' ? 'archived' : edition.publishingStatus}`, ExitCode.FAILURE, hint);
}

/**
 * Shows every precondition and stops (exit 1, nothing changed) when one that only the planner can
 * fix fails. A start in the past is not one: the date question comes next.
 */
async function reviewPreconditions(deps: ScheduleDeps, edition: EditionView): Promise<{ event: EventView; checks: Check[] }> {
  const event = await deps.client.get<EventView>(`/events/${edition.eventId}`);
  const checks = await checklist(deps.client, edition, event);
  showChecklist(deps, edition, checks);
  const blocking = blockingChecks(checks);
  if (blocking.length) {
    throw new CliError(`'${edition.name}' cannot be scheduled yet: ${blocking.map((c) => c.label).join('; ')}`, ExitCode.FAILURE, 'Fix what the checklist above names, then run again. Nothing was changed.');
  }
  return { event, checks };
}

/**
 * The one question before anything changes. With new dates the time checks are shown again (an
 * error there stops here); warnings shown are accepted with the answer, not asked about again.
 * Returns the accepted warning codes, or null when the planner declines.
 */
async function confirmSchedule(deps: ScheduleDeps, edition: EditionView, window: { start: string; end: string }, review: { event: EventView; checks: Check[] }): Promise<{ accepted: Set<string> } | null> {
  const moved = window.start !== edition.start;
  let shown = review.checks;
  if (moved) {
    const timed = await timeChecksFor(deps.client, { ...edition, ...window }, review.event);
    showChecklist(deps, { ...edition, ...window }, timed, 'With the new dates');
    const errors = timed.filter((c) => c.problem && c.level === 'ERROR');
    if (errors.length) throw new CliError(`'${edition.name}' cannot be scheduled at ${window.start}: ${errors.map((c) => c.problem).join('; ')}`, ExitCode.FAILURE, 'Pick another start date. Nothing was changed.');
    // The time checks shown last replace the first ones.
    shown = [...review.checks.filter((c) => !timed.some((t) => t.label === c.label)), ...timed];
  }
  const warnings = shown.filter((c) => c.problem && c.level === 'WARNING');
  const when = moved ? `${window.start} (moved from ${edition.start}; ends ${window.end})` : window.start;
  const despite = warnings.length ? `, despite the ${warnings.length === 1 ? 'warning' : `${warnings.length} warnings`} above` : '';
  if (!(await deps.prompts!.confirm({ message: `Schedule '${edition.name}' to publish at ${when}${despite}?`, default: !warnings.length }))) return null;
  return { accepted: new Set(warnings.flatMap((c) => (c.code ? [c.code] : []))) };
}

async function moveTo(deps: ScheduleDeps, edition: EditionView, window: { start: string; end: string }): Promise<EditionView> {
  const moved = await deps.client.patch<EditionView>(`/editions/${edition.id}`, { start: window.start, end: window.end });
  deps.say(`Moved '${moved.name}' to ${moved.start} – ${moved.end}.`);
  return moved;
}

async function pickEdition(deps: ScheduleDeps, eventFlag: string | undefined): Promise<string> {
  const { client, prompts } = deps;
  if (!prompts) {
    const why = deps.noPromptReason ? `; not asked: ${deps.noPromptReason}` : '';
    throw new UsageError('Missing the edition to schedule: <edition>', `Give its id (cms edition schedule <edition>), or run on a terminal without --yes to pick it${why}.`);
  }
  const eventId = eventFlag ? await deps.eventId(eventFlag) : await pickEvent(deps);
  const drafts: EditionView[] = [];
  for await (const e of client.paginate<EditionView>(`/events/${eventId}/editions`, 'editions')) if (e.publishingStatus === 'DRAFT' && e.status === 'ACTIVE') drafts.push(e);
  if (!drafts.length) throw new CliError('The event has no DRAFT edition to schedule', ExitCode.FAILURE, `Create one: cms edition create --event ${eventId} --name <name> --start <date> --end <date>`);
  return prompts.select({ message: 'Edition to schedule', choices: drafts.map((e) => ({ name: `${e.name} (${e.start} – ${e.end})`, value: e.id })) });
}

async function pickEvent(deps: ScheduleDeps): Promise<string> {
  const hubId = await deps.hubId();
  const active: EventView[] = [];
  for await (const e of deps.client.paginate<EventView>(`/hubs/${hubId}/events`, 'events')) if (e.status === 'ACTIVE') active.push(e);
  if (!active.length) throw new CliError('The hub has no active event', ExitCode.FAILURE, 'Create one: cms event create --name <name> --start <date> --end <date>');
  return deps.prompts!.select({ message: 'Event', choices: active.map((e) => ({ name: `${e.name} (${e.start} – ${e.end})`, value: e.id })) });
}

/** Every precondition of scheduling, from what the service answers about the edition (schedule-checks.ts decides). */
async function checklist(client: ApiClient, edition: EditionView, event: EventView): Promise<Check[]> {
  const base = `/editions/${edition.id}`;
  const [slots, contents, conflicts, collisions] = await Promise.all([
    entries(client, `${base}/slots`, 'edition-slots'),
    entries(client, `${base}/contents`, 'edition-content'),
    entries(client, `${base}/conflicts`, 'conflicts'),
    entries(client, `${base}/slot-collisions`, 'slot-collisions'),
  ]);
  return preconditions(edition, event, { slots, contents, conflicts, collisions }, await serviceNow(client), await overlapping(client, edition, event));
}

/** The checks that depend on the edition's dates, for a moved edition. */
async function timeChecksFor(client: ApiClient, edition: Pick<EditionView, 'id' | 'start' | 'end'>, event: EventView): Promise<Check[]> {
  return timeChecks(edition, await serviceNow(client), await overlapping(client, edition, event), event);
}

/** Scheduled editions of the hub whose time range overlaps the edition's (GET /hubs/{hub}/editions by range). */
async function overlapping(client: ApiClient, edition: Pick<EditionView, 'id' | 'start' | 'end'>, event: EventView): Promise<EditionView[] | null> {
  const hub = event._links?.hub?.href.split('/').pop();
  if (!hub) return null;
  try {
    const inRange: EditionView[] = [];
    for await (const e of client.paginate<EditionView>(`/hubs/${hub}/editions`, 'editions', { query: { rangeStart: edition.start, rangeEnd: edition.end } })) inRange.push(e);
    return overlapsOf(edition, inRange);
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

/** The entries of a listing, or null when the service does not answer it (an older service, no permission). */
async function entries(client: ApiClient, path: string, key: string): Promise<any[] | null> {
  try {
    const page = await client.get<{ _embedded?: Record<string, any[]> }>(path, { query: { size: 1000 } });
    return page._embedded?.[key] ?? [];
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}


function showChecklist(deps: ScheduleDeps, edition: Pick<EditionView, 'name' | 'start' | 'end'>, checks: Check[], heading = 'Checking'): void {
  deps.say(`${heading} '${edition.name}' (${edition.start} – ${edition.end}):`);
  for (const c of checks) {
    if (!c.problem) deps.say(`  ✓ ${c.label}`);
    else {
      deps.say(`  ${c.level === 'ERROR' ? '✗' : '!'} ${c.label}: ${c.problem}`);
      if (c.fix) deps.say(`      fix: ${c.fix}`);
    }
  }
}

/**
 * The edition's window after the start date is settled: --start, else (asking) the date typed,
 * else its own. A new start moves the whole window, keeping its length.
 */
async function chooseWindow(deps: ScheduleDeps, edition: EditionView, startFlag: string | undefined, event: EventView | null): Promise<{ start: string; end: string }> {
  const { client, prompts } = deps;
  const length = Date.parse(edition.end) - Date.parse(edition.start);
  const windowAt = (start: string) => ({ start, end: start === edition.start ? edition.end : new Date(Date.parse(start) + length).toISOString() });
  let start = edition.start;
  if (startFlag !== undefined) {
    start = await resolveDate(client, startFlag, '--start');
    const problem = event && windowProblem(windowAt(start), event);
    if (problem) throw new UsageError(`--start ${startFlag} moves '${edition.name}' out of its event: ${problem}`, `The edition lasts ${duration(length)}: start it between ${event!.start} and ${new Date(Date.parse(event!.end) - length).toISOString()}.`);
  } else if (prompts) {
    const validate = async (value: string) => {
      const future = await futureDateProblem(client, value);
      if (future !== true) return future;
      const problem = event && windowProblem(windowAt(await resolveDate(client, value.trim(), 'The date')), event);
      return problem ? `The edition would not fit its event: ${problem}` : true;
    };
    const typed = await prompts.input({ message: 'Publish at (ISO date-time or +<duration> from now)', default: edition.start, validate });
    start = await resolveDate(client, typed.trim(), 'The date');
  }
  return windowAt(start);
}

function duration(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48 && Number.isInteger(hours / 24) ? `${hours / 24} days` : `${Math.round(hours * 10) / 10} h`;
}

/** true for a date the edition can start at (after the service's now), else what is wrong with it. */
async function futureDateProblem(client: ApiClient, value: string): Promise<string | true> {
  try {
    const at = Date.parse(await resolveDate(client, value.trim(), 'The date'));
    return at > (await serviceNow(client)) ? true : 'The edition must start after now';
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * POST …/schedule. A 409 lists every problem (level and code) and fails (exit 1). When there are
 * only warnings: those the planner accepted at the confirmation are passed without asking again;
 * others are asked about once. false when the planner declines.
 */
async function submit(deps: ScheduleDeps, edition: EditionView, ignoreWarnings: boolean, accepted: ReadonlySet<string>): Promise<boolean> {
  try {
    await deps.client.post(`/editions/${edition.id}/schedule`, { lastModifiedDate: edition.lastModifiedDate }, { query: { ignoreWarnings: ignoreWarnings ? 'true' : undefined } });
    return true;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    const onlyWarnings = err.errors.length > 0 && err.errors.every((e) => e.level === 'WARNING');
    const refusal = refused(err, onlyWarnings);
    if (onlyWarnings && err.errors.every((e) => e.code && accepted.has(e.code))) return submit(deps, edition, true, accepted);
    if (onlyWarnings && deps.prompts) {
      deps.say(refusal.message);
      return (await deps.prompts.confirm({ message: 'Schedule anyway, ignoring these warnings?', default: false })) && submit(deps, edition, true, accepted);
    }
    throw refusal;
  }
}

function refused(err: ApiError, onlyWarnings: boolean): CliError {
  const problems = err.errors;
  const lines = problems.map((p) => `  ${p.level ?? 'ERROR'} ${p.code ?? ''}: ${p.message ?? ''}${detail(p)}`);
  const hint = onlyWarnings
    ? 'Only warnings: schedule anyway with --ignore-warnings.'
    : problems.some((p) => p.level === 'WARNING')
      ? 'Fix the errors and run again; the warnings can be passed with --ignore-warnings.'
      : 'Fix the errors and run again.';
  return new CliError(`Scheduling was refused:\n${lines.join('\n')}`, ExitCode.FAILURE, hint, undefined, err);
}

/** The names a problem lists (slots, conflicts, overlapping editions), so the planner sees which. */
function detail(p: ApiErrorEntry): string {
  const named = [...asList(p.slots), ...asList(p.conflicts), ...asList(p.overlaps), ...asList(p.collisions)]
    .map((x) => x.slotLabel ?? x.label ?? x.name ?? x.id ?? x.editionId)
    .filter(Boolean);
  return named.length ? ` (${named.join(', ')})` : '';
}

const asList = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** The edition after scheduling (the service prepares its publishing job meanwhile) and that job. */
async function result(deps: ScheduleDeps, editionId: string): Promise<ScheduleResult> {
  const edition = await deps.client.get<EditionView>(`/editions/${editionId}`);
  if (!edition.publishingJobId) {
    deps.say(`'${edition.name}' is ${edition.publishingStatus}; its publishing job is being prepared.`);
    return { edition, scheduled: true };
  }
  const job = await deps.client.get<{ id: string; state: string; scheduledDate: string }>(`/publishing-jobs/${edition.publishingJobId}`);
  deps.say(`'${edition.name}' is ${edition.publishingStatus}: publishing job ${job.id} is ${job.state}, due ${job.scheduledDate}.`);
  return { edition, scheduled: true, job: { id: job.id, state: job.state, scheduledDate: job.scheduledDate } };
}

/** The real prompts, on stderr (stdout stays for data), cancelled with Ctrl-C. */
export async function terminalPrompts(io: IO, signal: AbortSignal): Promise<Prompts> {
  const inquirer = await import('@inquirer/prompts');
  // The prompts draw on the stream themselves: edition and event names are escaped first.
  const context = { output: io.promptStream(), signal };
  return {
    select: (q) => inquirer.select({ ...q, message: visible(q.message), choices: q.choices.map((c) => ({ ...c, name: visible(c.name) })) }, context),
    input: (q) => inquirer.input({ ...q, message: visible(q.message), default: q.default === undefined ? undefined : visible(q.default) }, context),
    confirm: (q) => inquirer.confirm({ ...q, message: visible(q.message) }, context),
  };
}
