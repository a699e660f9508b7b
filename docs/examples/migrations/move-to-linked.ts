// Move values into a linked item: each article's summary moves to a new Teaser item the article
// links to. The Teaser schema and type are part of the migration (applied first, with a plan).
import { defineMigration } from 'cms-cli/migration';

const ARTICLE = 'https://schemas.example.com/demo/article.json';
const TEASER = 'https://schemas.example.com/demo/teaser.json';

export default defineMigration({
  description: 'Move article summaries into linked teasers',
  model: { schemas: 'model/teaser/schemas', types: 'model/teaser/types' },
  select: { contentType: ARTICLE },
  migrate(item, ctx) {
    const { summary, ...rest } = item.body;
    if (typeof summary !== 'string') return;
    const teaser = ctx.derive({ contentType: TEASER, label: `${item.label} (teaser)`, body: { text: summary } });
    return { body: { ...rest, teaser } };
  },
});
