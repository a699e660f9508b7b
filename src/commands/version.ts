import { defineCommand } from '../cli/define.js';
import { packageVersion } from '../server/core/package-version.js';
import { item } from '../output/result.js';
import { serviceInfo } from './_service.js';

export default defineCommand({
  summary: 'Show the versions of the CLI, Node and the service (with its schema version)',
  description:
    'The CLI and Node versions, and what the service of the current profile reports: a sandbox (embedded or served) gives its version and its database schema version (migrations applied and the newest one); another service says unknown. `cms --version` prints the CLI version alone, offline.',
  examples: ['cms version', 'cms version -o json', 'cms version --profile staging'],
  async run(ctx) {
    const cli = packageVersion();
    const service = await serviceInfo(ctx, await ctx.client());
    return item({ cli, node: process.version, service });
  },
});
