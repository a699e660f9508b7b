import { dirname, join, sep } from 'node:path';
import { UsageError } from '../core/errors.js';
import { findLinks } from '../server/core/content-links.js';
import { itemFiles, readItemFile, readManifest, type FolderInfo, type Manifest, type PlainItem, type RepositoryInfo } from './files/content-files.js';
import type { ImportSource, ItemRef } from './import.js';
import { SafeDir, type SkippedFiles } from './files/safe-files.js';
import { sizeHeapFor } from './runs/small-heap.js';

// The sources an import reads: an export directory (each item read twice, once for its links and
// once to write it, so bodies are never all in memory), or items already read into memory (copy).

const NO_LINKS: string[] = [];

/**
 * Reads items' refs, which a source keeps for every item of a run. Every string is kept once:
 * the repository ids, schemas and folders of 100,000 items are a handful of values, and a link
 * names an item whose id is already kept as a key (`id` interns a key the same way).
 */
export function refReader(): { refOf: (item: PlainItem) => ItemRef; id: (id: string) => string } {
  const strings = new Map<string, string>();
  const once = (s: string) => strings.get(s) ?? (strings.set(s, s), s);
  const refOf = (item: PlainItem): ItemRef => {
    const links = findLinks(item.body);
    return {
      repoId: once(item.contentRepositoryId),
      schema: once(item.body._meta.schema),
      folderId: item.folderId == null ? null : once(item.folderId),
      links: links.length ? links.map((l) => once(l.id)) : NO_LINKS,
    };
  };
  return { refOf, id: once };
}

/** An item's ref and its file: a file named after its item keeps only its directory (ending in a separator). */
interface FileRef extends ItemRef {
  file: string;
}

export function directorySource(dir: string): ImportSource & { manifest: Manifest } {
  const manifest = readManifest(dir);
  const safe = new SafeDir(dir);
  const refs = new Map<string, FileRef>();
  const { refOf, id } = refReader();
  const fileOf = (itemId: string) => {
    const { file } = refs.get(itemId)!;
    return file.endsWith(sep) ? `${file}${itemId}.json` : file;
  };
  const skipped: SkippedFiles = { files: [], dirs: [] };
  const files = itemFiles(safe, skipped);
  let deliveryKeys = 0;
  // Before the reading, whose parsed bodies are the most garbage a run makes.
  sizeHeapFor(files.length);
  for (const file of files) {
    const item = readItemFile(safe, file);
    if (refs.has(item.id)) throw new UsageError(`Item ${item.id} is in two files of ${dir}: ${fileOf(item.id)} and ${file}`);
    const folder = `${dirname(file)}${sep}`;
    const { repoId, schema, folderId, links } = refOf(item);
    if (hasDeliveryKey(item)) deliveryKeys++;
    // A literal, not a spread of the ref: V8 gave each spread copy a hidden class of its own (270 bytes an item).
    refs.set(id(item.id), { repoId, schema, folderId, links, file: file === `${folder}${item.id}.json` ? id(folder) : file });
  }
  return {
    manifest,
    repositories: manifest.repositories,
    folders: manifest.folders,
    refs,
    load: (itemId) => readItemFile(safe, fileOf(itemId)),
    fileOf: (itemId) => (refs.has(itemId) ? join(dir, fileOf(itemId)) : undefined),
    typeHint: (uri) => exportTypeHint(dir, manifest, uri),
    deliveryKeys,
    skipped,
  };
}

/** An item carrying a delivery key (as a field, or in body._meta as the service also accepts it). */
export const hasDeliveryKey = (item: PlainItem): boolean => Boolean(item.deliveryKey || item.body?._meta?.deliveryKey);

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
  const { refOf, id } = refReader();
  return {
    repositories,
    folders,
    refs: new Map([...byId].map(([key, item]) => [id(key), refOf(item)])),
    load: (id) => byId.get(id)!,
    deliveryKeys: [...byId.values()].filter(hasDeliveryKey).length,
    typeHint: () => 'cms item export <dir> --hub <source hub> --repo <repo>, then in the destination: cms schema apply <dir>/schemas && cms type apply <dir>/types',
  };
}
