import { closeSync, existsSync, mkdirSync, readFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { openAppend, type RunTarget } from '../runs/journal.js';

/**
 * Source id -> target id of what bulk runs created in a target hub. Import keeps one file per
 * target hub under <data dir>/mappings/, so a later run updates the items it made instead of
 * duplicating them; copy keeps its mapping in memory (a copy is always new). Lines are appended
 * as creates complete, the last line for an id wins.
 */
export interface IdMapping {
  get(kind: string, sourceId: string): string | undefined;
  set(kind: string, sourceId: string, targetId: string): void;
  /** Every mapping of one kind (link rewriting needs them all). */
  all(kind: string): Map<string, string>;
  close(): void;
}

export class MemoryMapping implements IdMapping {
  protected readonly maps = new Map<string, Map<string, string>>();

  get(kind: string, sourceId: string): string | undefined {
    return this.maps.get(kind)?.get(sourceId);
  }

  set(kind: string, sourceId: string, targetId: string): void {
    this.all(kind).set(sourceId, targetId);
  }

  all(kind: string): Map<string, string> {
    let map = this.maps.get(kind);
    if (!map) this.maps.set(kind, (map = new Map()));
    return map;
  }

  close(): void {}
}

/** The mapping file of one target hub. */
export class FileMapping extends MemoryMapping {
  private fd: number | null = null;

  /** `readOnly`: pairs set are kept in memory only (a dry run writes nothing). */
  constructor(
    readonly path: string,
    private readonly readOnly = false,
  ) {
    super();
    if (!existsSync(path)) return;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const { k, s, t } = JSON.parse(line) as { k: string; s: string; t: string };
        super.set(k, s, t);
      } catch {
        // A line cut short by a kill.
      }
    }
  }

  static forTarget(dataDir: string, target: RunTarget, opts: { readOnly?: boolean } = {}): FileMapping {
    const dir = join(dataDir, 'mappings');
    if (!opts.readOnly) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return new FileMapping(join(dir, `${targetKey(target)}.ndjson`), opts.readOnly);
  }

  override set(kind: string, sourceId: string, targetId: string): void {
    if (this.get(kind, sourceId) === targetId) return;
    super.set(kind, sourceId, targetId);
    if (this.readOnly) return;
    this.fd ??= openAppend(this.path, 0o600);
    writeSync(this.fd, `${JSON.stringify({ k: kind, s: sourceId, t: targetId })}\n`);
  }

  override close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** One name per service and hub (mapping files, run locks): the same hub id on two services is two targets. */
export function targetKey(target: RunTarget): string {
  const hash = createHash('sha256').update(`${target.apiUrl}\n${target.hubId ?? ''}`).digest('hex').slice(0, 16);
  return `${target.hubId ?? 'hub'}-${hash}`;
}
