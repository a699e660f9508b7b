import { col } from '../../output/result.js';

export const REPO_COLUMNS = [
  col('id'),
  col('name'),
  col('label'),
  col('features', (r: { features?: string[] }) => (r.features ?? []).join(',')),
  col('locales', (r: { itemLocales?: string[] }) => (r.itemLocales ?? []).join(',')),
];
