import { defineCommand } from '../../../cli/define.js';
import { col, list } from '../../../output/result.js';

export default defineCommand({
  summary: 'List the API clients of the sandbox (never their secrets)',
  examples: ['cms sandbox client list'],
  async run(ctx) {
    const client = await ctx.client();
    const { clients } = await client.get<{ clients: unknown[] }>('/__sandbox/clients');
    return list(clients, [
      col('id'),
      col('admin'),
      col('permissions', (c: { permissions: string[]; admin: boolean }) => (c.admin ? 'all' : c.permissions.length)),
      col('acl', (c: { acl: { resource: string; id: string; permissions: string[] }[] }) => c.acl.map((a) => `${a.resource}:${a.id}:${a.permissions.join(',')}`).join(' ')),
    ]);
  },
});
