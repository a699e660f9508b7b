import { defineCommand } from '../../cli/define.js';
import { list } from '../../output/result.js';
import { LINK_COLUMNS, linkRows } from './_shared.js';

export default defineCommand({
  summary: 'List the administrative operations of the service',
  examples: ['cms admin operations', 'cms admin operations -o json'],
  async run(ctx) {
    const client = await ctx.client();
    return list(linkRows(await client.get('/admin')), LINK_COLUMNS);
  },
});
