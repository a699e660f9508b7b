// Split one field into two: a title "Roundup: launch week" becomes kicker "Roundup" and title "launch week".
import { defineMigration } from 'cms-cli/migration';

const ARTICLE = 'https://schemas.example.com/demo/article.json';

export default defineMigration({
  description: 'Split "Kicker: title" titles into kicker and title',
  select: {
    contentType: ARTICLE,
    repository: 'content',
    where: (item) => typeof item.body.title === 'string' && item.body.title.includes(': '),
  },
  migrate(item) {
    const [kicker, ...rest] = String(item.body.title).split(': ');
    return { body: { ...item.body, kicker, title: rest.join(': ') } };
  },
});
