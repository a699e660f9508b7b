import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { findLinks } from '../server/core/content-links.js';
import { itemFiles, readItemFile, readManifest, type FolderInfo, type Manifest, type PlainItem, type RepositoryInfo } from './content-files.js';
import type { ImportSource, ItemRef } from './import.js';
import { SafeDir } from './safe-files.js';

// The sources an import reads: an export directory (each item read twice, once for its links and
// once to write it, so bodies are never all in memory), or items already read into memory (copy).

/**
 * Reads items' refs, which a source keeps for every item of a run: the repository ids, schemas
 * and folders of 100,000 items are a handful of values, kept once each rather than once per item.
 */
export function refReader(): (item: PlainItem) => ItemRef {
  const strings = new Map<string, string>();
  const once = (s: string) => strings.get(s) ?? (strings.set(s, s), s);
  return (item) => ({
    repoId: once(item.contentRepositoryId),
    schema: once(item.body._meta.schema),
    folderId: item.folderId == null ? null : once(item.folderId),
    links: findLinks(item.body).map((l) => l.id),
  });
}

export function directorySource(dir: string): ImportSource & { manifest: Manifest } {
  const manifest = readManifest(dir);
  const safe = new SafeDir(dir);
  const files = new Map<string, string>();
  const refs = new Map<string, ItemRef>();
  const refOf = refReader();
  for (const file of itemFiles(safe)) {
    const item = readItemFile(safe, file);
    if (files.has(item.id)) throw new UsageError(`Item ${item.id} is in two files of ${dir}: ${files.get(item.id)} and ${file}`);
    files.set(item.id, file);
    refs.set(item.id, refOf(item));
  }
  return {
    manifest,
    repositories: manifest.repositories,
    folders: manifest.folders,
    refs,
    load: (id) => readItemFile(safe, files.get(id)!),
    typeHint: (uri) => exportTypeHint(dir, manifest, uri),
  };
}

/** The commands that create a missing content type from the export's own files. */
function exportTypeHint(dir: string, manifest: Manifest, uri: string): string | undefined {
  const hasType = manifest.types.some((t) => t.contentTypeUri === uri);
  if (!hasType) return undefined;
  const schemas = manifest.schemas.some((s) => s.schemaId === uri) ? `cms schema apply ${quote(join(dir, 'schemas'))} && ` : '';
  return `${schemas}cms type apply ${quote(join(dir, 'types'))}`;
}

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function memorySource(items: Iterable<PlainItem>, repositories: RepositoryInfo[], folders: FolderInfo[]): ImportSource {
  const byId = new Map<string, PlainItem>();
  for (const item of items) byId.set(item.id, item);
  const refOf = refReader();
  return {
    repositories,
    folders,
    refs: new Map([...byId].map(([id, item]) => [id, refOf(item)])),
    load: (id) => byId.get(id)!,
    typeHint: () => 'cms item export <dir> --hub <source hub> --repo <repo>, then in the destination: cms schema apply <dir>/schemas && cms type apply <dir>/types',
  };
}
