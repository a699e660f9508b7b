import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CliError, UsageError } from '../../core/errors.js';
import type { ItemChange, MigrationItem, MigrationModel, DerivedItem } from './api.js';
import { WORKER_SOURCE } from './worker-source.js';

// Loading a migration file: TypeScript or JavaScript, bundled with esbuild (Node 20 cannot strip
// types; a user writing `migration.ts` expects it to run as written, imports included) into a
// private temporary directory, then run in a worker thread (worker-source.ts) with a time limit
// per item. `cms-cli/migration` resolves to a one-line stand-in, so the file needs no install
// of cms-cli beside it. esbuild is loaded only here, by `cms migration run`.

/** What the migration declares, read from it once loaded (its functions stay in the worker). */
export interface MigrationInfo {
  name?: string;
  description?: string;
  select: { contentType?: string | string[]; repository?: string | string[]; folder?: string; query?: string; status?: string };
  hasWhere: boolean;
  model?: MigrationModel;
  retire?: string[];
}

export interface LoadedFile {
  /** Absolute path of the migration file. */
  path: string;
  /** What the record of applied migrations knows it by: its name, else the file name. */
  name: string;
  /** SHA-256 of the file's text: a changed file after its run is reported. */
  hash: string;
  info: MigrationInfo;
}

/** What one item's run of migrate() gave. */
export interface Outcome {
  /** Not selected: `where` returned false. */
  skip?: boolean;
  /** migrate() returned nothing: the item is left alone. */
  none?: boolean;
  change?: ItemChange;
  derived?: DerivedItem[];
  error?: string;
}

const EXTENSIONS = /\.(m|c)?(t|j)sx?$/;
/** How long loading the file may take (its top level runs then). */
const LOAD_TIMEOUT_MS = 30_000;
const SHIM = 'export const defineMigration = (migration) => migration;\n';

/** Bundles the file; a file that cannot be read or compiled is a usage error naming it (exit 2). */
async function bundle(path: string, outDir: string): Promise<void> {
  type Esbuild = typeof import('esbuild');
  const esbuild = (await import('esbuild')) as Esbuild & { default?: Esbuild };
  const build = esbuild.build ?? esbuild.default!.build;
  try {
    await build({
      entryPoints: [path],
      outfile: join(outDir, 'migration.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
      // A bundled CommonJS package may still call require(): give the module one.
      banner: { js: "import { createRequire as __cmsRequire } from 'node:module'; const require = __cmsRequire(import.meta.url);" },
      plugins: [
        {
          name: 'cms-cli-migration',
          setup(b) {
            b.onResolve({ filter: /^cms-cli\/migration$/ }, () => ({ path: 'cms-cli/migration', namespace: 'cms-shim' }));
            b.onLoad({ filter: /.*/, namespace: 'cms-shim' }, () => ({ contents: SHIM, loader: 'js' }));
          },
        },
      ],
    });
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors ?? [];
    const lines = errors.slice(0, 5).map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text));
    throw new UsageError(`Migration ${path} could not be loaded${lines.length ? `:\n  ${lines.join('\n  ')}` : `: ${(err as Error).message}`}`);
  }
}

/**
 * The migration's code, running in a worker thread. Items are sent one by one; each must answer
 * within the time limit, else the worker is terminated (the item fails) and a new one started
 * for the rest (items it was working on besides are sent again).
 */
export class MigrationHost {
  private worker!: Worker;
  private seq = 0;
  private readonly pending = new Map<number, { item: MigrationItem; resolve: (o: Outcome) => void; timer: NodeJS.Timeout }>();
  private restarting: Promise<void> | null = null;
  private closed = false;
  /** Set when a new worker could not be started: every later item fails with it. */
  private broken: string | null = null;

  private constructor(
    private readonly dir: string,
    readonly file: LoadedFile,
    private readonly timeoutMs: number,
    /** Answers ctx.get(id) of the migration. */
    private readonly getItem: (id: string) => Promise<MigrationItem | undefined>,
  ) {}

  /** Reads, bundles and starts the migration; exit 2 naming the file when it cannot be loaded or holds no migration. */
  static async load(file: string, opts: { timeoutMs: number; getItem: (id: string) => Promise<MigrationItem | undefined> }): Promise<MigrationHost> {
    const path = resolve(file);
    if (!EXTENSIONS.test(path)) throw new UsageError(`Migration ${file} is not a TypeScript or JavaScript file (.ts, .mts, .js, .mjs)`);
    if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`Migration ${file} does not exist`);
    const text = readFileSync(path);
    const hash = createHash('sha256').update(text).digest('hex');
    const dir = mkdtempSync(join(tmpdir(), 'cms-migration-'));
    try {
      await bundle(path, dir);
      writeFileSync(join(dir, 'worker.mjs'), WORKER_SOURCE);
      const host = new MigrationHost(dir, { path, name: basename(path), hash, info: { select: {}, hasWhere: false } }, opts.timeoutMs, opts.getItem);
      const info = await host.start();
      const name = info.name?.trim() || basename(path);
      Object.assign(host.file, { name, info });
      return host;
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      if (err instanceof CliError) throw err;
      throw new UsageError(`Migration ${file} could not be loaded: ${(err as Error).message}`);
    }
  }

  /** The directory of the migration file: the model's directories are relative to it. */
  get baseDir(): string {
    return dirname(this.file.path);
  }

  private start(): Promise<MigrationInfo> {
    return new Promise<MigrationInfo>((resolveInfo, reject) => {
      // The worker's own heap is bounded: a migration that piles up data fails alone.
      const worker = new Worker(join(this.dir, 'worker.mjs'), { resourceLimits: { maxOldGenerationSizeMb: 512 }, stdout: false, stderr: false });
      this.worker = worker;
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new UsageError(`Migration ${this.file.path} could not be loaded: its top level ran longer than ${LOAD_TIMEOUT_MS / 1000} s`));
      }, LOAD_TIMEOUT_MS);
      let ready = false;
      worker.on('message', (msg: { t: string; [k: string]: unknown }) => {
        if (msg.t === 'ready') {
          ready = true;
          clearTimeout(timer);
          resolveInfo(msg.info as MigrationInfo);
        } else if (msg.t === 'load-error') {
          clearTimeout(timer);
          void worker.terminate();
          reject(new UsageError(`Migration ${this.file.path} ${String(msg.message)}`));
        } else if (msg.t === 'result') this.settle(msg.seq as number, msg as Outcome);
        else if (msg.t === 'get') void this.answerGet(worker, msg.req as number, String(msg.id));
      });
      worker.on('error', (err) => {
        if (!ready) {
          clearTimeout(timer);
          reject(new UsageError(`Migration ${this.file.path} could not be loaded: ${err.message}`));
          return;
        }
        // An error the migration threw outside migrate() (a timer's callback): every item in flight fails with it.
        for (const seq of [...this.pending.keys()]) this.settle(seq, { error: `the migration failed outside migrate(): ${err.message}` });
      });
      worker.on('exit', () => {
        if (!ready || this.worker !== worker || this.closed || this.restarting) return;
        // Out of memory or process.exit() in the migration: the items in flight fail, a new worker takes the rest.
        for (const seq of [...this.pending.keys()]) this.settle(seq, { error: 'the migration stopped its worker (out of memory or process.exit)' });
        this.restarting = this.start().then(
          () => void (this.restarting = null),
          (err: Error) => {
            this.broken = err.message;
            this.restarting = null;
          },
        );
      });
    });
  }

  private async answerGet(worker: Worker, req: number, id: string): Promise<void> {
    try {
      const item = await this.getItem(id);
      worker.postMessage({ t: 'got', req, item });
    } catch (err) {
      worker.postMessage({ t: 'got', req, error: (err as Error).message });
    }
  }

  private settle(seq: number, outcome: Outcome): void {
    const p = this.pending.get(seq);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(seq);
    const { t: _t, seq: _s, ...rest } = outcome as Outcome & { t?: string; seq?: number };
    p.resolve(rest);
  }

  /** Runs the migration on one item. Never throws: an error is the outcome's. */
  async run(item: MigrationItem): Promise<Outcome> {
    if (this.restarting) await this.restarting.catch(() => {});
    if (this.broken) return { error: this.broken };
    return new Promise<Outcome>((resolveOutcome) => {
      const seq = this.seq++;
      const timer = this.timer(seq, item);
      this.pending.set(seq, { item, resolve: resolveOutcome, timer });
      this.worker.postMessage({ t: 'item', seq, item });
    });
  }

  private timer(seq: number, item: MigrationItem): NodeJS.Timeout {
    return setTimeout(() => void this.cutOff(seq, item), this.timeoutMs);
  }

  /** One item ran too long: the worker is terminated, that item fails, the others in flight go to a new worker. */
  private async cutOff(seq: number, item: MigrationItem): Promise<void> {
    if (!this.pending.has(seq) || this.restarting) return;
    this.settle(seq, { error: `migrate() ran longer than ${this.timeoutMs / 1000} s on item ${item.id}: stopped (--item-timeout)` });
    const old = this.worker;
    const others = [...this.pending.entries()];
    this.restarting = (async () => {
      await old.terminate();
      await this.start();
    })();
    try {
      await this.restarting;
    } catch (err) {
      this.broken = (err as Error).message;
    } finally {
      this.restarting = null;
    }
    if (this.broken) {
      for (const [otherSeq] of others) this.settle(otherSeq, { error: this.broken });
      return;
    }
    for (const [otherSeq, p] of others) {
      if (!this.pending.has(otherSeq)) continue;
      clearTimeout(p.timer);
      p.timer = this.timer(otherSeq, p.item);
      this.worker.postMessage({ t: 'item', seq: otherSeq, item: p.item });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    await this.worker?.terminate();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A change that cannot be applied as given (a wrong type of field): the item fails with this. */
export function changeProblem(change: ItemChange): string | undefined {
  const c = change as Record<string, unknown>;
  const known = new Set(['body', 'label', 'folderId', 'deliveryKey', 'workflowState', 'archive', 'contentType']);
  const unknown = Object.keys(c).filter((k) => !known.has(k));
  if (unknown.length) return `the change has fields a migration cannot set: ${unknown.join(', ')} (body, label, folderId, deliveryKey, workflowState, archive, contentType)`;
  if (c.body !== undefined && (!c.body || typeof c.body !== 'object' || Array.isArray(c.body))) return 'change.body must be an object';
  if (c.label !== undefined && (typeof c.label !== 'string' || !c.label.trim())) return 'change.label must be a non-empty string';
  for (const k of ['folderId', 'deliveryKey', 'workflowState']) if (c[k] !== undefined && c[k] !== null && typeof c[k] !== 'string') return `change.${k} must be a string or null`;
  if (c.archive !== undefined && typeof c.archive !== 'boolean') return 'change.archive must be true or false';
  if (c.contentType !== undefined && typeof c.contentType !== 'string') return 'change.contentType must be a content type URI';
  return undefined;
}

