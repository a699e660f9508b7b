// Rename a field: every article's `summary` becomes `standfirst`.
import { defineMigration } from 'cms-cli/migration';

const ARTICLE = 'https://schemas.example.com/demo/article.json';

export default defineMigration({
  description: 'Rename summary to standfirst on articles',
  select: { contentType: ARTICLE },
  migrate(item) {
    const { summary, ...rest } = item.body;
    // Nothing to rename: the item is left alone (a second run changes nothing).
    if (summary === undefined) return;
    return { body: { ...rest, standfirst: summary } };
  },
});
