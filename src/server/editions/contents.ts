import type { Db } from '../core/db.js';
import { serviceError, type ErrorDetail } from '../core/errors.js';
import { snapshots } from '../snapshots/index.js';
import type { EditionContent } from './store.js';

// Edition content: snapshots associated with an edition directly (not through a slot). Clients
// send it in several shapes; all become `{body: {contents: [{_meta, id: <snapshot id>, contentType}]}}`.

type ContentEntry = EditionContent['content']['body']['contents'][number];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The entries a body names, with the path of each, or null when it names none (`{}`): an array of
 * entries, `{body: {contents}}`, a whole EditionContents `{content: {body: {contents}}}`, or one
 * entry `{snapshot}` / `{id, contentType}`.
 */
export function requestedEntries(input: unknown): { path: string; value: unknown }[] | null {
  const list = (values: unknown, at: string) => (Array.isArray(values) ? values.map((value, i) => ({ path: `${at}[${i}]`, value })) : [{ path: at, value: values }]);
  if (Array.isArray(input)) return list(input, '');
  if (!isObject(input)) return null;
  // A whole EditionContents carries its own record id: only its content counts.
  if (isObject(input.content)) return contentsOf(input.content, 'content.body.contents', list);
  return contentsOf(input, 'body.contents', list) ?? ('snapshot' in input || 'id' in input ? [{ path: '', value: input }] : null);
}

function contentsOf<T>(value: Record<string, unknown>, at: string, list: (values: unknown, at: string) => T): T | null {
  return isObject(value.body) && 'contents' in value.body ? list(value.body.contents, at) : null;
}

/**
 * Each requested entry as stored: the snapshot id (from `snapshot` or `id`), its content type
 * (given, or the snapshot root's) and a content-link _meta. 400 naming every entry that does
 * not name a snapshot of the hub.
 */
export function contentEntries(db: Db, hubId: string, requested: readonly { path: string; value: unknown }[], linkSchema: string): ContentEntry[] {
  const problems: ErrorDetail[] = [];
  const entries: ContentEntry[] = [];
  for (const { path, value } of requested) {
    const at = (field: string) => (path ? `${path}.${field}` : field);
    const entry = isObject(value) ? value : {};
    const id = typeof entry.snapshot === 'string' ? entry.snapshot : entry.id;
    const snapshot = typeof id === 'string' ? snapshots(db).get(id) : undefined;
    if (!snapshot || snapshot.hubId !== hubId) {
      problems.push({ code: 'SNAPSHOT_NOT_FOUND', entity: 'EditionContent', property: at('id'), invalidValue: id ?? null, message: `${at('id')}: ${typeof id === 'string' ? `no snapshot ${id} in this hub` : 'is required: a snapshot id'}` });
      continue;
    }
    const meta = isObject(entry._meta) ? entry._meta : { schema: linkSchema, rootContentItemIds: snapshot.rootContentItems.map((r) => r.id), locked: false };
    entries.push({ _meta: meta, id: snapshot.id, contentType: typeof entry.contentType === 'string' ? entry.contentType : snapshot.rootContentItem.contentTypeUri });
  }
  if (problems.length) throw serviceError(400, problems);
  return entries;
}
