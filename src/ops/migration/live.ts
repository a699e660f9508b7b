import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ApiClient } from '../../core/client.js';
import { ApiError, CliError } from '../../core/errors.js';
import { folderTree, hubRepositories, readSelection, type Selection } from '../export.js';
import type { FolderInfo, RepositoryInfo } from '../files/content-files.js';
import { publishItem } from '../publish-item.js';
import type { BulkRun } from '../runs/bulk-run.js';
import { Governor } from '../runs/pool.js';
import { waitForJob } from '../wait-for-job.js';
import type { DerivedItem } from './api.js';
import type { MigrationHost } from './load.js';
import { changed, judge, migrationItem, withDerivedIds, type State, type StoredItem } from './plan.js';
import type { Reporter } from './report.js';
import type { BodyValidator } from './validate.js';

// A migration on a hub, through the bulk engine: the selection is listed first (pages in
// parallel, spooled to a temporary file so memory stays flat and no write moves the pages under
// the listing), then each item runs through the migration and its change is written under the
// rate governor with bounded concurrency. Every write is version-checked and journaled (intent,
// then result), so --resume finishes a killed run and `cms undo` restores each item. An item
// someone changed since it was read (409) is read again and the migration run again on it: the
// other change is never overwritten.

export interface LiveOptions {
  client: ApiClient;
  hubId: string;
  host: MigrationHost;
  validator: BodyValidator;
  reporter: Reporter;
  ignoreSchemaValidation: boolean;
  publish: boolean;
  concurrency?: number;
  signal?: AbortSignal;
}

/** Times an item is read again after a version conflict before it fails. */
const CONFLICT_RETRIES = 3;
const PUBLISHED = new Set(['LATEST', 'EARLY']);

export class LiveMigration {
  private repos!: Map<string, RepositoryInfo>;
  private folders: FolderInfo[] = [];
  private states = new Map<string, string>();
  private readonly jobs: { id: string; url: string }[] = [];

  constructor(
    private readonly run: BulkRun,
    private readonly o: LiveOptions,
  ) {}

  private get client(): ApiClient {
    return this.o.client;
  }

  /** Lists the selection, then migrates each item. */
  async all(): Promise<void> {
    const sel = await this.selection();
    const types = this.o.host.file.info.select.contentType;
    const wanted = types === undefined ? null : new Set(Array.isArray(types) ? types : [types]);
    const dir = mkdtempSync(join(tmpdir(), 'cms-migration-list-'));
    try {
      const spool = join(dir, 'items.ndjson');
      const total = await this.list(sel, spool, wanted);
      this.run.progress.start(total, this.run.dryRun ? 'plan migration' : 'migrate');
      await this.workflowStates();
      const governor = new Governor(this.o.concurrency);
      const stop = governor.watch(this.client);
      const running = new Set<Promise<void>>();
      let failure: unknown = null;
      try {
        const lines = createInterface({ input: createReadStream(spool, 'utf8'), crlfDelay: Infinity });
        for await (const line of lines) {
          if (failure) break;
          if (!line) continue;
          const release = await governor.acquire(this.o.signal);
          const p = this.item(JSON.parse(line) as StoredItem)
            .then(() => governor.success())
            .catch((err) => void (failure ??= err))
            .finally(() => {
              release();
              running.delete(p);
            });
          running.add(p);
        }
      } finally {
        await Promise.all(running);
        stop();
      }
      if (failure) throw failure;
      if (this.jobs.length) await this.waitForPublishing();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The migration's selection as the export reads it (repository names and folder resolved). */
  private async selection(): Promise<Selection> {
    const s = this.o.host.file.info.select;
    this.repos = await hubRepositories(this.client, this.o.hubId);
    const names = s.repository === undefined ? [] : Array.isArray(s.repository) ? s.repository : [s.repository];
    const repoIds = names.map((n) => {
      const repo = [...this.repos.values()].find((r) => r.id === n || r.name === n);
      if (!repo) throw new CliError(`The migration selects repository '${n}', which the hub does not have (it has ${[...this.repos.values()].map((r) => r.name).join(', ') || 'none'})`, 2);
      return repo.id;
    });
    if (s.folder) {
      const folder = await this.client.get<{ contentRepositoryId: string }>(`/folders/${s.folder}`).catch((err) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) throw new CliError(`The migration selects folder '${s.folder}', which does not exist`, 2);
        throw err;
      });
      this.folders = await folderTree(this.client, folder.contentRepositoryId);
    }
    const status = s.status === 'ALL' ? 'ACTIVE,ARCHIVED' : s.status === 'ARCHIVED' ? 'ARCHIVED' : 'ACTIVE';
    return { hubId: this.o.hubId, repoIds: repoIds.length ? repoIds : s.folder ? [] : [...this.repos.keys()], folderId: s.folder, status, search: s.query, facets: [] };
  }

  /** Writes the selected items (of the wanted content types) to the spool file; how many. */
  private async list(sel: Selection, spool: string, wanted: Set<string> | null): Promise<number> {
    const out = createWriteStream(spool, { mode: 0o600 });
    // One wait for 'drain' shared by every item of the pages in flight (one listener, not one each).
    let drained: Promise<unknown> | null = null;
    let n = 0;
    await readSelection(this.client, sel, this.folders, {
      concurrency: this.o.concurrency,
      pageSize: 100,
      signal: this.o.signal,
      onTotal: () => {},
      onItem: async (item) => {
        if (wanted && !wanted.has(item.body?._meta?.schema)) return;
        n++;
        if (!out.write(`${JSON.stringify(item)}\n`)) await (drained ??= once(out, 'drain').finally(() => (drained = null)));
      },
    });
    out.end();
    await once(out, 'close');
    return n;
  }

  private async workflowStates(): Promise<void> {
    try {
      for await (const s of this.client.paginate<{ id: string; label: string }>(`/hubs/${this.o.hubId}/workflow-states`, 'workflow-states', { pageSize: 100 })) this.states.set(s.label, s.id);
    } catch {
      // Without the list a state is taken as an id.
    }
  }

  private readonly resolveState = (name: string) => this.states.get(name) ?? name;

  /** One item: judged, reported, and (unless a dry run) written; a failure is the item's. */
  private async item(stored: StoredItem): Promise<void> {
    const label = stored.label;
    try {
      let current = stored;
      for (let attempt = 0; ; attempt++) {
        const verdict = await judge(this.o.host, current, this.resolveState);
        if (verdict.kind === 'skip' || verdict.kind === 'unchanged') {
          if (!this.run.dryRun && verdict.kind === 'unchanged' && !this.run.done(`item:${current.id}`)) this.run.record({ key: `item:${current.id}`, action: 'unchanged', resource: 'item', targetId: current.id, version: current.version, label }, { counted: false });
          this.o.reporter.item({ id: current.id, label, action: verdict.kind });
          this.tick(current.id, verdict.kind, true);
          return;
        }
        if (verdict.kind === 'fail') {
          this.failItem(current.id, label, verdict.reason);
          return;
        }
        const problems = changed.body(verdict.from, verdict.to) ? await this.o.validator.problems(verdict.to.body) : [];
        if (problems.length && !this.o.ignoreSchemaValidation) {
          this.o.reporter.item({ id: current.id, label, action: 'invalid', changes: verdict.changes, problems });
          this.run.fail(`item:${current.id}`, current.id, new Error(`skipped: the migrated body does not match its schema: ${problems.join('; ')}`));
          return;
        }
        if (this.run.dryRun) {
          this.o.reporter.item({ id: current.id, label, action: 'change', changes: verdict.changes, ...(problems.length ? { problems } : {}) });
          if (verdict.derived.length) this.o.reporter.add('derived', verdict.derived.length);
          if (changed.status(verdict.from, verdict.to) && verdict.to.status === 'ARCHIVED') this.o.reporter.add('archived');
          this.tick(current.id, 'change', true);
          return;
        }
        try {
          await this.apply(current, verdict.from, verdict.to, verdict.derived);
          this.o.reporter.item({ id: current.id, label, action: 'change', changes: verdict.changes, ...(problems.length ? { problems } : {}) });
          this.tick(current.id, 'update', true);
          return;
        } catch (err) {
          // Changed by someone else since it was read: read again, run the migration again on it.
          if (!(err instanceof ApiError && err.status === 409) || attempt >= CONFLICT_RETRIES) throw err;
          const now = await this.fetch(current.id);
          if (!now) throw new CliError('deleted during the run');
          current = now;
        }
      }
    } catch (err) {
      if (this.o.signal?.aborted) throw err;
      this.failItem(stored.id, label, err);
    }
  }

  private failItem(id: string, label: string, err: unknown): void {
    const reason = err instanceof Error ? err.message : String(err);
    this.o.reporter.item({ id, label, action: 'fail', reason });
    this.run.fail(`item:${id}`, id, err instanceof Error ? err : new Error(reason));
  }

  private tick(id: string, action: string, ok: boolean): void {
    this.run.progress.step({ key: `item:${id}`, action, ok, id });
  }

  async fetch(id: string): Promise<StoredItem | undefined> {
    try {
      return await this.client.get<StoredItem>(`/content-items/${id}`);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return undefined;
      throw err;
    }
  }

  /** ctx.get() of the migration. */
  readonly getItem = async (id: string) => {
    const item = await this.fetch(id);
    return item && migrationItem(item);
  };

  /**
   * Writes one item's change, each write version-checked and journaled under its own key (a
   * resumed run skips the writes its journal holds): linked items it derives, unarchiving when
   * an archived item changes, the update, the workflow state, archiving, publishing.
   */
  private async apply(item: StoredItem, from: State, to: State, derived: DerivedItem[]): Promise<void> {
    const id = item.id;
    const ids = await Promise.all(derived.map((d, n) => this.derive(item, d, n)));
    to = withDerivedIds(to, ids);
    let version = item.version;
    let status = from.status;
    const label = item.label;
    const base = { resource: 'item', targetId: id, label };
    if (changed.content(from, to)) {
      if (status === 'ARCHIVED' && !this.run.done(`unarchive:${id}`)) {
        version = await this.write(`unarchive:${id}`, 'unarchive', version, { status }, { status: 'ACTIVE' }, () => this.client.post(`/content-items/${id}/unarchive`, { version }, { idempotent: true }));
        status = 'ACTIVE';
      }
      if (!this.run.done(`item:${id}`)) {
        const body: Record<string, unknown> = { version };
        if (changed.body(from, to)) body.body = to.body;
        if (from.label !== to.label) body.label = to.label;
        if (from.folderId !== to.folderId) body.folderId = to.folderId;
        if (from.deliveryKey !== to.deliveryKey) body.deliveryKey = to.deliveryKey;
        const query = this.o.ignoreSchemaValidation ? { ignoreSchemaValidation: true } : undefined;
        version = await this.write(`item:${id}`, 'update', version, { version, deliveryKey: from.deliveryKey }, { label: to.label }, () => this.client.patch(`/content-items/${id}`, body, { query, idempotent: true }));
      }
    }
    if (changed.workflow(from, to) && !this.run.done(`workflow:${id}`)) {
      version = await this.write(`workflow:${id}`, 'update', version, { version, workflowState: from.workflowState }, undefined, () => this.client.patch(`/content-items/${id}/workflow`, { version, state: to.workflowState }, { idempotent: true }), false);
    }
    if (to.status === 'ARCHIVED' && status !== 'ARCHIVED' && !this.run.done(`archive:${id}`)) {
      version = await this.write(`archive:${id}`, 'archive', version, { version, status: 'ACTIVE' }, { status: 'ARCHIVED' }, () => this.client.post(`/content-items/${id}/archive`, { version }, { idempotent: true }));
      this.o.reporter.add('archived');
    } else if (to.status === 'ACTIVE' && status === 'ARCHIVED' && !this.run.done(`unarchive:${id}`)) {
      version = await this.write(`unarchive:${id}`, 'unarchive', version, { version, status: 'ARCHIVED' }, { status: 'ACTIVE' }, () => this.client.post(`/content-items/${id}/unarchive`, { version }, { idempotent: true }));
    }
    if (this.o.publish && to.status === 'ACTIVE' && PUBLISHED.has(item.publishingStatus ?? '') && !this.run.done(`publish:${id}`)) {
      const url = await publishItem(this.client, id, this.run.id ? `${this.run.id}:publish:${id}` : undefined);
      this.jobs.push({ id, url });
      this.run.record({ key: `publish:${id}`, action: 'publish', ...base, version }, { counted: true });
      this.o.reporter.add('published');
    }
  }

  /** One version-checked write: its intent journaled first, its result after; the item's new version. */
  private async write(key: string, action: 'update' | 'archive' | 'unarchive', version: number, before: Record<string, unknown>, expect: Record<string, unknown> | undefined, send: () => Promise<unknown>, counted = true): Promise<number> {
    const id = key.slice(key.indexOf(':') + 1);
    const step = { key, action, resource: 'item', targetId: id, before };
    this.run.intend({ ...step, version, expect });
    const answer = (await send()) as { version: number };
    this.run.record({ ...step, version: answer.version }, { counted });
    return answer.version;
  }

  /** A linked item the change derives: made once per run (journaled; a retry replays its Idempotency-Key). */
  private async derive(item: StoredItem, d: DerivedItem, n: number): Promise<string> {
    const key = `derive:${item.id}/${n}`;
    const done = this.run.done(key);
    if (done) return done.targetId;
    const repo = d.repository ? [...this.repos.values()].find((r) => r.id === d.repository || r.name === d.repository) : this.repos.get(item.contentRepositoryId);
    if (!repo) throw new CliError(`derive(): no repository '${d.repository}' in the hub`);
    const folderId = d.folderId !== undefined ? d.folderId : repo.id === item.contentRepositoryId ? (item.folderId ?? null) : null;
    const locale = d.locale !== undefined ? d.locale : repo.id === item.contentRepositoryId ? (item.locale ?? null) : null;
    const body = { label: d.label, body: { ...d.body, _meta: { ...((d.body._meta as object) ?? {}), schema: d.contentType } }, folderId, locale };
    const path = `/content-repositories/${repo.id}/content-items`;
    const idempotencyKey = `${this.run.id}:${key}`;
    const step = { key, action: 'create' as const, resource: 'item', sourceId: `${item.id}/${n}`, label: d.label };
    this.run.intend({ ...step, request: { method: 'POST', path, body, idempotencyKey } });
    const made = (await this.client.request<{ id: string; version: number }>('POST', path, { body, idempotencyKey })).data;
    this.run.record({ ...step, targetId: made.id, version: made.version });
    this.o.reporter.add('derived');
    return made.id;
  }

  private async waitForPublishing(): Promise<void> {
    this.run.note(`waiting for ${this.jobs.length} publishing job(s)`);
    for (const job of this.jobs) {
      try {
        await waitForJob(this.client, job.url, { timeoutMs: 300_000, intervalMs: 250, io: { note() {} }, signal: this.o.signal, what: 'Publishing job' });
      } catch (err) {
        if (this.o.signal?.aborted) throw err;
        this.run.fail(`publish:${job.id}`, job.id, err);
      }
    }
  }
}
