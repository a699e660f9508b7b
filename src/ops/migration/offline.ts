import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { MANIFEST, fileText, itemFiles, itemPath, readItemFile, readManifest, type Manifest, type PlainItem } from '../files/content-files.js';
import { SafeDir } from '../files/safe-files.js';
import type { Progress } from '../runs/progress.js';
import type { MigrationHost } from './load.js';
import { changed, judge, migrationItem, withDerivedIds, type StoredItem } from './plan.js';
import type { Reporter } from './report.js';
import type { BodyValidator } from './validate.js';

// A migration on an export directory (`cms item export` layout), without a hub: every item file
// runs through the migration and the result is written beside the export (<dir>.migrated by
// default) in the same layout, so `cms item import` can take it and CI can test a migration
// without credentials. Nothing in the export itself is changed.

/** A marker in a directory this command wrote: only such a directory is replaced by a later run. */
export const OUT_MARKER = '.cms-migration.json';
/** Items in flight through the migration's worker at once. */
const IN_FLIGHT = 32;

export interface OfflineOptions {
  dir: string;
  out: string;
  host: MigrationHost;
  validator: BodyValidator;
  reporter: Reporter;
  progress: Progress;
  ignoreSchemaValidation: boolean;
  dryRun: boolean;
}

export function defaultOut(dir: string): string {
  const abs = resolve(dir);
  return `${abs.replace(/[\\/]+$/, '')}.migrated`;
}

export class OfflineMigration {
  private readonly safe: SafeDir;
  private readonly manifest: Manifest;
  private readonly files: string[];
  private readonly byId = new Map<string, string>();
  private readonly repoDir = new Map<string, string>();
  readonly failures: { id: string; reason: string }[] = [];

  constructor(private readonly o: OfflineOptions) {
    this.manifest = readManifest(o.dir);
    this.safe = new SafeDir(o.dir);
    this.files = itemFiles(this.safe);
    for (const f of this.files) this.byId.set(basename(f, '.json'), f);
    for (const r of this.manifest.repositories) this.repoDir.set(r.id, r.name);
  }

  get total(): number {
    return this.files.length;
  }

  /** ctx.get() of the migration: an item of the export. */
  readonly getItem = async (id: string) => {
    const file = this.byId.get(id);
    return file ? migrationItem(readItemFile(this.safe, file) as StoredItem) : undefined;
  };

  async all(): Promise<void> {
    const { out } = this.o;
    if (!this.o.dryRun) this.prepareOut(out);
    this.o.progress.start(this.files.length, this.o.dryRun ? 'plan migration' : 'migrate export');
    let next = 0;
    const worker = async () => {
      while (next < this.files.length) await this.item(this.files[next++]!);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    if (!this.o.dryRun) writeFileSync(join(out, OUT_MARKER), fileText({ from: resolve(this.o.dir), migration: this.o.host.file.name, hash: this.o.host.file.hash, counts: this.o.reporter.counts }));
  }

  private prepareOut(out: string): void {
    if (resolve(out) === resolve(this.o.dir)) throw new UsageError('--out must not be the export itself: the result is written beside it');
    if (existsSync(out)) {
      if (!existsSync(join(out, OUT_MARKER))) throw new UsageError(`${out} exists and was not written by cms migration run: not replaced`, 'Remove it, or name another directory with --out.');
      rmSync(out, { recursive: true, force: true });
    }
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, MANIFEST), readFileSync(join(this.o.dir, MANIFEST)));
    for (const d of ['schemas', 'types']) if (existsSync(join(this.o.dir, d))) cpSync(join(this.o.dir, d), join(out, d), { recursive: true });
  }

  private async item(file: string): Promise<void> {
    let item: PlainItem;
    try {
      item = readItemFile(this.safe, file);
    } catch (err) {
      this.fail(basename(file, '.json'), file, (err as Error).message);
      return;
    }
    if (!this.selects(item)) {
      this.write(file, item);
      return;
    }
    const label = item.label;
    const verdict = await judge(this.o.host, item as StoredItem);
    const keep = () => this.write(file, item);
    if (verdict.kind === 'skip' || verdict.kind === 'unchanged') {
      this.o.reporter.item({ id: item.id, label, action: verdict.kind });
      this.o.progress.step({ key: `item:${item.id}`, action: verdict.kind, ok: true, id: item.id });
      keep();
      return;
    }
    if (verdict.kind === 'fail') {
      this.fail(item.id, label, verdict.reason);
      keep();
      return;
    }
    const problems = changed.body(verdict.from, verdict.to) ? await this.o.validator.problems(verdict.to.body) : [];
    if (problems.length && !this.o.ignoreSchemaValidation) {
      this.o.reporter.item({ id: item.id, label, action: 'invalid', changes: verdict.changes, problems });
      this.failures.push({ id: item.id, reason: `skipped: the migrated body does not match its schema: ${problems.join('; ')}` });
      this.o.progress.step({ key: `item:${item.id}`, action: 'fail', ok: false, id: item.id });
      keep();
      return;
    }
    // Derived items get ids made from the deriving item's: the same on every run of the export.
    const ids = verdict.derived.map((_d, n) => uuidOf(`${item.id}/${n}`));
    const to = withDerivedIds(verdict.to, ids);
    this.o.reporter.item({ id: item.id, label, action: 'change', changes: verdict.changes, ...(problems.length ? { problems } : {}) });
    this.o.progress.step({ key: `item:${item.id}`, action: 'change', ok: true, id: item.id });
    if (to.status === 'ARCHIVED' && item.status !== 'ARCHIVED') this.o.reporter.add('archived');
    this.o.reporter.add('derived', verdict.derived.length);
    if (this.o.dryRun) return;
    this.write(file, { ...item, label: to.label, body: to.body, folderId: to.folderId, deliveryKey: to.deliveryKey, status: to.status, version: item.version + 1 });
    for (const [n, d] of verdict.derived.entries()) {
      const repo = d.repository ? this.manifest.repositories.find((r) => r.id === d.repository || r.name === d.repository) : this.manifest.repositories.find((r) => r.id === item.contentRepositoryId);
      if (!repo) {
        this.fail(item.id, label, `derive(): no repository '${d.repository}' in the export`);
        continue;
      }
      const same = repo.id === item.contentRepositoryId;
      const made: PlainItem = {
        id: ids[n]!,
        label: d.label,
        body: { ...d.body, _meta: { ...((d.body._meta as object) ?? {}), schema: d.contentType } } as PlainItem['body'],
        locale: d.locale !== undefined ? d.locale : same ? item.locale : null,
        folderId: d.folderId !== undefined ? d.folderId : same ? item.folderId : null,
        deliveryKey: null,
        version: 1,
        status: 'ACTIVE',
        contentRepositoryId: repo.id,
      };
      this.writeAt(itemPath(repo.name, made.id), made);
    }
  }

  /** The migration's selection, as the export can tell it (a query: every word in the label or body, any case). */
  private selects(item: PlainItem): boolean {
    const s = this.o.host.file.info.select;
    const list = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
    const types = list(s.contentType);
    if (types && !types.includes(item.body._meta.schema)) return false;
    const repos = list(s.repository);
    if (repos && !repos.some((r) => r === item.contentRepositoryId || this.repoDir.get(item.contentRepositoryId) === r)) return false;
    const status = s.status === 'ALL' ? undefined : (s.status ?? 'ACTIVE');
    if (status && item.status !== status) return false;
    if (s.folder) {
      this.subtree ??= folderSubtree(this.manifest, s.folder);
      if (!item.folderId || !this.subtree.has(item.folderId)) return false;
    }
    if (s.query) {
      const text = `${item.label} ${JSON.stringify(item.body)}`.toLowerCase();
      if (!s.query.toLowerCase().split(/\s+/).filter(Boolean).every((w) => text.includes(w))) return false;
    }
    return true;
  }

  private subtree?: Set<string>;

  private fail(id: string, label: string, reason: string): void {
    this.failures.push({ id, reason });
    this.o.reporter.item({ id, label, action: 'fail', reason });
    this.o.progress.step({ key: `item:${id}`, action: 'fail', ok: false, id, error: reason });
  }

  private write(file: string, item: PlainItem): void {
    if (this.o.dryRun) return;
    this.writeAt(file, item);
  }

  private writeAt(rel: string, item: PlainItem): void {
    const path = join(this.o.out, rel);
    if (!path.startsWith(resolve(this.o.out) + sep)) throw new UsageError(`refusing to write outside ${this.o.out}: ${rel}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, fileText(item));
  }
}

function folderSubtree(manifest: Manifest, root: string): Set<string> {
  const ids = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of manifest.folders) if (f.parentId && ids.has(f.parentId) && !ids.has(f.id)) grew = Boolean(ids.add(f.id));
  }
  return ids;
}

/** A UUID (version 4 layout) made from a name. */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(`cms-migration:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
