import { defineCommand } from '../../cli/define.js';
import { clientRecovering } from './_recover.js';
import { item } from '../../output/result.js';

export default defineCommand({
  summary: 'Show the state of the sandbox the profile points at',
  examples: ['cms sandbox status', 'cms sandbox status -o json'],
  async run(ctx) {
    const client = await clientRecovering(ctx);
    const conn = ctx.connection();
    const status = await client.get<Record<string, unknown>>('/__sandbox/status');
    return item({ mode: conn.embedded ? 'embedded' : 'http', ...(conn.embedded ? { dataDir: conn.dataDir } : { url: conn.apiUrl }), ...status });
  },
});
