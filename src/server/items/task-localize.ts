import type { ServiceHost } from '../core/context.js';
import type { Task } from '../core/tasks.js';
import type { Db } from '../core/db.js';
import { badRequest } from '../core/errors.js';
import { newUuid } from '../core/ids.js';
import { findLinks, rewriteLinks } from '../core/content-links.js';
import { assignedType, withDeliveryKey } from './rules.js';
import { descendants, itemVersion, items, localizedVariant, newItem, saveItem, touchItem, type ContentItem } from './store.js';
import { repositories } from '../repositories/index.js';
import { localizationJobs, localizationTarget, type LocalizationJob } from './localization-jobs.js';

// Task 'localize' (ref: the job id): copies the root item and every item it reaches through
// content links into the repository of the group that serves each requested locale. Each
// locale succeeds or fails as a whole; the job is COMPLETED when every locale did.

type LocaleResult = LocalizationJob['results'][number];

export function run(service: ServiceHost, task: Task): void {
  const db = service.db;
  const job = localizationJobs(db).get(task.ref);
  if (!job) return;
  const { version } = JSON.parse(task.payload) as { version: number };
  const root = itemVersion(db, job.rootContentItem.id, version);
  const now = new Date(service.clock.now()).toISOString();
  const results = job.requestedLocales.map((locale) =>
    root ? localizeInto(db, job, root, locale, now) : { locale, status: 'FAILED' as const, message: `Content item ${job.rootContentItem.id} no longer exists` },
  );
  const status = results.every((r) => r.status === 'COMPLETED') ? 'COMPLETED' : 'FAILED';
  localizationJobs(db).update({ ...job, status, results, lastModifiedDate: now });
}

/**
 * One locale in its own savepoint: every copy is made, or none. Whatever stops it becomes the
 * locale's reason, so the job always ends (a job left IN_PROGRESS would be polled forever).
 */
function localizeInto(db: Db, job: LocalizationJob, root: ContentItem, locale: string, now: string): LocaleResult {
  try {
    return db.transaction(() => copyGraph(db, job, root, locale, now))();
  } catch (err) {
    return { locale, status: 'FAILED', message: err instanceof Error ? err.message : String(err) };
  }
}

function copyGraph(db: Db, job: LocalizationJob, root: ContentItem, locale: string, now: string): LocaleResult {
  const target = localizationTarget(db, repositories(db).get(root.contentRepositoryId)!, locale);
  if (!target) throw badRequest(`No repository of the localization group has item locale ${locale}`);
  // Each item maps to its variant in the locale: an existing one is reused, the rest are copied.
  const idMap = new Map<string, string>();
  const toCopy: ContentItem[] = [];
  for (const original of graphOf(db, root)) {
    const existing = original.locale === locale ? original : localizedVariant(db, groupOf(original), locale);
    if (existing) idMap.set(original.id, existing.id);
    else {
      assignedType({ db }, target, original.body._meta.schema);
      idMap.set(original.id, newUuid());
      toCopy.push(original);
    }
  }
  const stamp = { createdBy: job.createdBy, createdDate: now, lastModifiedBy: job.createdBy, lastModifiedDate: now };
  for (const original of toCopy) {
    joinGroup(db, original.id);
    const fields = { body: rewriteLinks(original.body, idMap), label: original.label, folderId: null, locale, assignees: [], localizationGroupId: groupOf(original) };
    // A delivery key belongs to one item of the hub: the copy goes without it.
    saveItem(db, withDeliveryKey(newItem(target, fields, stamp, idMap.get(original.id)), null), 'LOCALIZE', true);
  }
  return { locale, status: 'COMPLETED', repositoryId: target.id, createdItemIds: toCopy.map((o) => idMap.get(o.id)!) };
}

/** The root as of the requested version, then the current version of each item its links reach (in its hub). */
function graphOf(db: Db, root: ContentItem): ContentItem[] {
  const store = items(db);
  const reached = new Set(findLinks(root.body).flatMap((l) => descendants(db, l.id)));
  reached.delete(root.id);
  const rest = [...reached].map((id) => store.get(id)).filter((i): i is ContentItem => i?.hubId === root.hubId);
  return [root, ...rest];
}

const groupOf = (item: ContentItem) => item.localizationGroupId ?? item.id;

/** Marks an original as the head of its localization group (not a new version: nothing the client edits changed). */
function joinGroup(db: Db, id: string): void {
  const current = items(db).get(id)!;
  if (!current.localizationGroupId) touchItem(db, { ...current, localizationGroupId: current.id });
}
