import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { repositories, type Repository } from '../repositories/index.js';

export interface LocalizationJob {
  id: string;
  hubId: string;
  status: 'CREATED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  rootContentItem: { id: string; label: string; locale: string | null };
  requestedLocales: string[];
  /** What the job made: one entry per locale (created item ids, or why it could not). */
  results: { locale: string; status: 'COMPLETED' | 'FAILED'; repositoryId?: string; createdItemIds?: string[]; message?: string }[];
  createdBy: string;
  createdDate: string;
  lastModifiedDate: string;
}

export const localizationJobs = (db: Db) =>
  new Collection<LocalizationJob>(
    db,
    'localization_jobs',
    { hub_id: (j) => j.hubId, root_item_id: (j) => j.rootContentItem.id, created_date: (j) => j.createdDate },
    { createdDate: 'created_date' },
  );

/** The repository of `repo`'s localization group that serves `locale` (the oldest, when several do). */
export function localizationTarget(db: Db, repo: Repository, locale: string): Repository | undefined {
  const serving = { where: "group_id = ? AND EXISTS (SELECT 1 FROM json_each(data, '$.itemLocales') WHERE value = ?)", params: [repo.groupId, locale] };
  return repositories(db).all(serving, [{ field: 'createdDate', dir: 'asc' }])[0];
}
