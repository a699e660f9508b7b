import type { IO } from '../../cli/io.js';
import type { Connection } from '../../config/resolve.js';
import type { ApiClient, QueryValue } from '../../core/client.js';
import type { BulkRun } from '../runs/bulk-run.js';
import { diff, type FieldChange } from '../runs/diff.js';
import { collect } from '../export.js';
import type { Syncer, Written } from '../runs/reconcile.js';

// What every step of `cms hub clone` works with: both sides, the run, the id mapping (per
// resource kind, from this run's journal and earlier clones between the same hubs) and the notes
// the summary ends with.

export const STEPS = ['settings', 'workflow-states', 'extensions', 'schemas', 'types', 'repositories', 'folders', 'items', 'events', 'webhooks', 'search-indexes'] as const;
export type StepName = (typeof STEPS)[number];

/** One end of the clone: a client, and the hub on it (`new:hub` while a dry run only plans it). */
export interface Side {
  /** As given: `<profile>[:<hub>]`. */
  spec: string;
  client: ApiClient;
  connection: Connection;
  hubId: string;
  hubName: string;
}

/** What defines a clone run: saved in its journal, reused by --resume. */
export interface ClonePlan {
  from: string;
  to: string;
  sourceHubId: string;
  /** The target hub's name (created when missing) and, once known, its id. */
  targetHubName: string;
  targetHubId?: string;
  steps: StepName[];
  schedule: boolean;
  webhooks: 'inactive' | 'active';
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
}

export class CloneContext {
  /** Schemas whose content changed in this run: content types of them get their cached copy refreshed. */
  readonly changedSchemas = new Set<string>();
  /** Work shared by several units (a snapshot used by two slots is made once). */
  readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    readonly sync: Syncer<BulkRun>,
    readonly source: Side,
    readonly target: Side,
    readonly plan: ClonePlan,
    readonly io: IO,
    readonly notes: string[],
    readonly signal?: AbortSignal,
  ) {}

  get run(): BulkRun {
    return this.sync.run;
  }

  get dryRun(): boolean {
    return this.sync.dryRun;
  }

  get ids() {
    return this.sync.ids;
  }

  sourceList<T>(path: string, key: string, query?: Record<string, QueryValue>): Promise<T[]> {
    return collect<T>(this.source.client, path, key, query);
  }

  /** A target collection; empty under a parent a dry run only planned. */
  async targetList<T>(path: string, key: string, query?: Record<string, QueryValue>): Promise<T[]> {
    return path.includes(NEW_SEGMENT) ? [] : collect<T>(this.target.client, path, key, query);
  }

  /** Starts a step's part of the progress display. */
  progress(total: number, what: string): void {
    this.run.progress.start(total, `${this.dryRun ? 'plan' : 'clone'} ${what}`);
  }

  note(message: string): void {
    if (!this.notes.includes(message)) this.notes.push(message);
  }

  /** Runs `work` once per key in this run, sharing its result. */
  once<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, work());
    return this.memo.get(key) as Promise<T>;
  }

  /**
   * A resource whose wanted state is a set of fields: created with them (POST), or its differing
   * top-level fields PATCHed (their previous values journaled for undo).
   */
  fields<T extends { id: string }>(o: FieldsUnit<T>): Promise<string | undefined> {
    const changed = (t: T) => diff(pick(t, Object.keys(o.wanted)), o.wanted);
    return this.sync.unit<T>({
      key: `${o.kind}:${o.sourceId}`,
      resource: o.kind,
      sourceId: o.sourceId,
      label: o.label,
      existing: o.existing,
      identify: (t) => ({ id: t.id }),
      changes: changed,
      create: async () => {
        const made = await this.target.client.post<{ id: string }>(o.createPath, o.createBody ?? o.wanted, { idempotencyKey: this.sync.idempotencyKey(`${o.kind}:${o.sourceId}`) });
        return o.afterCreate ? o.afterCreate(made) : { id: made.id };
      },
      update: async (t) => {
        await this.target.client.patch(o.updatePath(t.id), pick(o.wanted, topKeys(changed(t))));
        return { id: t.id };
      },
      before: (t) => pick(t, topKeys(changed(t))),
    });
  }
}

export interface FieldsUnit<T> {
  kind: string;
  sourceId: string;
  label: string;
  existing?: T;
  /** The fields the target should have. */
  wanted: Record<string, unknown>;
  createPath: string;
  /** What a create sends, when it is not `wanted`. */
  createBody?: Record<string, unknown>;
  afterCreate?(made: { id: string }): Promise<Written>;
  updatePath(id: string): string;
}

const NEW_SEGMENT = '/new:';

export function pick(value: object, keys: readonly string[]): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

/** The top-level fields a set of changes touches (`settings.label` -> `settings`). */
export function topKeys(changes: readonly FieldChange[]): string[] {
  return [...new Set(changes.map((c) => c.path.split(/[.[]/)[0]!))];
}
