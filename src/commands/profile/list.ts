import { defineCommand } from '../../cli/define.js';
import { readProfiles } from '../../config/profiles.js';
import { col, list } from '../../output/result.js';

export default defineCommand({
  summary: 'List saved profiles (the current one is marked *)',
  examples: ['cms profile list'],
  async run(ctx) {
    const file = readProfiles(ctx.env);
    const rows = Object.entries(file.profiles).map(([name, p]) => ({
      current: name === file.current,
      name,
      apiUrl: p.apiUrl ?? 'sandbox',
      clientId: p.clientId,
      hub: p.hub ?? null,
      protected: Boolean(p.protected),
    }));
    return list(rows, [col('', (r: { current: boolean }) => (r.current ? '*' : '')), col('name'), col('api', 'apiUrl'), col('client', 'clientId'), col('hub'), col('protected')]);
  },
});
