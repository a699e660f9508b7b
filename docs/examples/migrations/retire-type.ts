// Retire a content type after moving its items: every article becomes a story (links to
// articles now name the story type), then the article type is archived. Run it with --publish
// to publish again what was published.
import { defineMigration } from 'cms-cli/migration';

const ARTICLE = 'https://schemas.example.com/demo/article.json';
const STORY = 'https://schemas.example.com/demo/story.json';

/** The body with every link to an article naming the story type instead. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'contentType' && v === ARTICLE ? STORY : relink(v);
    return out;
  }
  return value;
}

export default defineMigration({
  description: 'Move articles to the story type and retire the article type',
  model: { schemas: 'model/story/schemas', types: 'model/story/types' },
  select: { contentType: ARTICLE },
  retire: [ARTICLE],
  migrate(item, ctx) {
    const { _meta, ...fields } = item.body;
    return ctx.moveTo(STORY, { _meta, ...(relink(fields) as object) });
  },
});
