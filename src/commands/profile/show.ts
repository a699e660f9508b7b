import { defineCommand } from '../../cli/define.js';
import { resolveConnection } from '../../config/resolve.js';
import { profileFilePath } from '../../config/profiles.js';
import { item } from '../../output/result.js';

export default defineCommand({
  summary: 'Show the connection a command would use, and where each value came from',
  examples: ['cms profile show', 'cms profile show staging -o json'],
  args: [{ name: 'name', description: 'profile name (default: the one in effect)' }],
  async run(ctx, args) {
    const conn = args.name ? resolveConnection({ profile: args.name }, ctx.env) : ctx.connection();
    return item({
      profile: conn.profile,
      source: conn.source,
      mode: conn.embedded ? 'embedded sandbox' : 'remote',
      apiUrl: conn.embedded ? 'sandbox' : conn.apiUrl,
      authUrl: conn.embedded ? 'sandbox' : conn.authUrl,
      clientId: conn.clientId,
      clientSecret: conn.clientSecret ? '(set; never shown)' : '(not set)',
      hub: conn.hub ?? null,
      dataDir: conn.embedded ? conn.dataDir : null,
      configFile: profileFilePath(ctx.env),
    });
  },
});
