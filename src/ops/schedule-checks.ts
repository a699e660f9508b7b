// The preconditions of scheduling an edition, as pure functions of what the service answered.
// The CLI's guided `edition schedule` (schedule-edition.ts) and the sandbox console's Planning
// view both fetch the same listings and show this same checklist.

/** One precondition as the checklist shows it: `problem` unset means it holds. */
export interface Check {
  label: string;
  level: 'ERROR' | 'WARNING';
  problem?: string;
  fix?: string;
  /** The code the service's refusal gives this problem (a warning the planner accepted is not asked about again). */
  code?: string;
}

export interface EditionDates {
  id: string;
  name?: string;
  start: string;
  end: string;
  publishingStatus?: string;
}

export interface EventFacts {
  name: string;
  status: string;
  /** The event's window: an edition must lie within it (the service refuses a move out of it). */
  start?: string;
  end?: string;
}

/** The listings the checks read; null when the service did not answer one. */
export interface EditionFacts {
  slots: any[] | null;
  contents: any[] | null;
  conflicts: any[] | null;
  collisions: any[] | null;
}

/** Publishing states in which an edition holds its slots (and cannot be scheduled again). */
export const IN_PUBLICATION = new Set(['SCHEDULING', 'SCHEDULED', 'PUBLISHING']);
export const START_CHECK = 'starts in the future';

/** The scheduled editions among `editions` (the hub's editions in the range) other than this one. */
export function overlapsOf<T extends EditionDates>(edition: Pick<EditionDates, 'id'>, editions: T[] | null): T[] | null {
  return editions === null ? null : editions.filter((e) => e.id !== edition.id && IN_PUBLICATION.has(e.publishingStatus ?? ''));
}

/** Every precondition: event, content, slots, conflicts, collisions, then the time checks. */
export function preconditions(edition: EditionDates, event: EventFacts, facts: EditionFacts, now: number, overlaps: EditionDates[] | null): Check[] {
  const { slots, contents, conflicts, collisions } = facts;
  const invalid = (slots ?? []).filter((s) => s.status === 'INVALID');
  const open = (conflicts ?? []).filter((c) => c.resolvedVersion === undefined);
  return [
    {
      label: `event '${event.name}' is active`,
      level: 'ERROR',
      problem: event.status === 'ACTIVE' ? undefined : 'the event is archived: its editions cannot be scheduled',
      fix: `copy the edition into an active event: cms edition create --event <event> --copy-from ${edition.id}`,
    },
    {
      label: 'has content',
      level: 'ERROR',
      problem: slots === null || contents === null ? unknown() : slots.length + contents.length ? undefined : 'the edition has no slot and no content snapshot',
      fix: `assign a slot (cms edition slots ${edition.id} --add <slot>) or add a snapshot (cms edition content ${edition.id} --add-snapshot <snapshot>)`,
    },
    {
      label: 'every slot is VALID',
      level: 'ERROR',
      problem: slots === null ? unknown() : invalid.length ? `${invalid.length} INVALID slot(s): ${invalid.map((s) => `${s.slotLabel} (${s.slotId})`).join(', ')}` : undefined,
      fix: `choose a snapshot for every empty link: cms edition slot-content ${edition.id} <edition-slot> --snapshot <snapshot>`,
    },
    {
      label: 'no unresolved conflicts',
      level: 'ERROR',
      problem: conflicts === null ? unknown() : open.length ? `${open.length} item(s) at different versions: ${open.map((c) => `${c.label || c.id} (versions ${versionsOf(c)})`).join(', ')}` : undefined,
      fix: `choose a version for each: cms edition resolve ${edition.id} --item <item> --version <n>`,
    },
    {
      label: 'no slot collisions',
      level: 'WARNING',
      code: 'EDITION_CONTAINS_SLOT_COLLISIONS',
      problem:
        collisions === null
          ? unknown()
          : collisions.length
            ? collisions.map((c) => `${c.slotLabel} is also in ${(c.collidingEditions ?? []).map((o: EditionDates) => `'${o.name}'`).join(', ')}`).join('; ')
            : undefined,
      fix: 'the later-starting edition wins the slot while both run; move or change one, or schedule with --ignore-warnings',
    },
    ...timeChecks(edition, now, overlaps, event),
  ];
}

/**
 * The checks that depend on the edition's dates: a start in the future, within its event's
 * window, and scheduled editions overlapping it.
 */
export function timeChecks(edition: Pick<EditionDates, 'start' | 'end'>, now: number, overlaps: EditionDates[] | null, event?: EventFacts): Check[] {
  return [
    {
      label: START_CHECK,
      level: 'ERROR',
      problem: Date.parse(edition.start) > now ? undefined : `it starts at ${edition.start}, before the service's now (${new Date(now).toISOString()})`,
      fix: 'pick a later start date below (or --start +1h)',
    },
    ...(event?.start && event.end ? [windowCheck(edition, { ...event, start: event.start, end: event.end })] : []),
    {
      label: 'no scheduled edition overlaps it',
      level: 'WARNING',
      code: 'EDITION_SCHEDULE_OVERLAP',
      problem: overlaps === null ? unknown() : overlaps.length ? overlaps.map((o) => `'${o.name}' (${o.publishingStatus}, ${o.start} – ${o.end})`).join(', ') : undefined,
      fix: 'items both publish go live at the later start; check they agree, or schedule with --ignore-warnings',
    },
  ];
}

export const WINDOW_CHECK = "within its event's dates";

/** The service refuses an edition that starts before its event or ends after it (400 on the move). */
function windowCheck(edition: Pick<EditionDates, 'start' | 'end'>, event: EventFacts & { start: string; end: string }): Check {
  return { label: WINDOW_CHECK, level: 'ERROR', problem: windowProblem(edition, event), fix: `keep the edition between ${event.start} and ${event.end}, or change the event's dates (cms event update)` };
}

/** What puts an edition outside its event's window, if anything. */
export function windowProblem(edition: Pick<EditionDates, 'start' | 'end'>, event: { name: string; start: string; end: string }): string | undefined {
  if (Date.parse(edition.start) < Date.parse(event.start)) return `it starts at ${edition.start}, before event '${event.name}' starts (${event.start})`;
  if (Date.parse(edition.end) > Date.parse(event.end)) return `it ends at ${edition.end}, after event '${event.name}' ends (${event.end})`;
  return undefined;
}

/** The checks that stop scheduling before anything is sent (the dates are settled by the date question that follows). */
export const blockingChecks = (checks: Check[]): Check[] => checks.filter((c) => c.problem && c.level === 'ERROR' && c.label !== START_CHECK && c.label !== WINDOW_CHECK);

const unknown = () => 'could not be checked (the service did not answer)';
const versionsOf = (c: { versions?: { version: number }[] }) => [...new Set((c.versions ?? []).map((v) => v.version))].join(', ');
