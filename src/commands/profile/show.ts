import { defineCommand } from '../../cli/define.js';
import { deliveryUrlTemplate, resolveConnection } from '../../config/resolve.js';
import { profileFilePath } from '../../config/profiles.js';
import { col, item, list } from '../../output/result.js';

export default defineCommand({
  summary: 'Show the connection a command would use, and where each value came from',
  description:
    'SOURCE says where each value came from: flag, env (an environment variable), profile, or default. -o json gives the values and a sources object. The client secret and a personal access token (CMS_ACCESS_TOKEN or `cms login --token`) are never shown, only whether they are set.',
  examples: ['cms profile show', 'cms profile show staging -o json'],
  args: [{ name: 'name', description: 'profile name (default: the one in effect)' }],
  async run(ctx, args) {
    const conn = resolveConnection({ profile: args.name ?? ctx.globals.profile, hub: ctx.globals.hub }, ctx.env);
    const envOr = (name: string) => (ctx.env[name] ? 'env' : 'default');
    const values = {
      profile: conn.profile,
      source: conn.source,
      mode: conn.embedded ? 'embedded sandbox' : 'remote',
      apiUrl: conn.embedded ? 'sandbox' : conn.apiUrl,
      authUrl: conn.embedded ? 'sandbox' : conn.authUrl,
      // Content Delivery 2 (`cms item get --delivered`); {hubName} stands for the hub's name.
      deliveryUrl: deliveryUrlTemplate(conn),
      clientId: conn.accessToken ? null : conn.clientId,
      clientSecret: conn.clientSecret ? '(set; never shown)' : '(not set)',
      // A personal access token replaces the client credentials; like the secret, never shown.
      accessToken: conn.accessToken ? '(set; never shown)' : '(not set)',
      hub: conn.hub ?? null,
      // Writes ask first (cms profile protect).
      protected: Boolean(conn.protected),
      // Runs, journals and mappings live there for remote profiles too.
      dataDir: conn.dataDir,
      configFile: profileFilePath(ctx.env),
    };
    const sources: Record<string, string> = {
      ...conn.sources,
      mode: conn.sources?.apiUrl ?? '',
      protected: conn.profile ? 'profile' : 'default',
      dataDir: ctx.env.CMS_DATA_DIR ? 'env' : envOr('XDG_DATA_HOME'),
      configFile: ctx.env.CMS_CONFIG_DIR ? 'env' : envOr('XDG_CONFIG_HOME'),
    };
    // Tables show one row per value with its source; JSON and YAML keep the object (plus sources).
    if ((ctx.globals.output === 'table' || ctx.globals.output === 'wide') && !ctx.globals.query) {
      const rows = Object.entries(values)
        .filter(([k]) => k !== 'source')
        .map(([setting, value]) => ({ setting, value: value ?? '', source: sources[setting] ?? '' }));
      return list(rows, [col('setting'), col('value'), col('source')]);
    }
    return item({ ...values, sources });
  },
});
