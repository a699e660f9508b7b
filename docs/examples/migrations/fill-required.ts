// Fill a new required field: the article schema gains a required `slug` (declared here, applied
// first), and every article gets one made from its label: one reviewed step.
import { defineMigration } from 'cms-cli/migration';

const ARTICLE = 'https://schemas.example.com/demo/article.json';

const slugOf = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-');

export default defineMigration({
  description: 'Add a required slug to articles and fill it',
  model: { schemas: 'model/slug/schemas' },
  select: { contentType: ARTICLE, status: 'ALL' },
  migrate(item) {
    if (typeof item.body.slug === 'string' && item.body.slug) return;
    return { body: { ...item.body, slug: slugOf(item.label) } };
  },
});
