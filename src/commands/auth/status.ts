import { defineCommand } from '../../cli/define.js';
import { connectionSources } from '../../config/resolve.js';
import { item } from '../../output/result.js';
import { serviceInfo } from '../_service.js';

export default defineCommand({
  summary: 'Show who you are, which service and hub you reach, and when the token expires',
  description:
    'The client id and profile in effect and where each value came from (flag, environment, profile or default), the service (API URL; embedded sandbox, served sandbox or remote), the current hub (name and id), and the expiry of the access token (the cached one, or a new one: that also checks the credentials). Neither the token nor the secret is ever printed.',
  examples: ['cms auth status', 'cms auth status --hub demo -o json', 'CMS_PROFILE=staging cms auth status'],
  async run(ctx) {
    const conn = ctx.connection();
    const sources = connectionSources(conn, { hub: ctx.globals.hub }, ctx.env);
    const client = await ctx.client();
    const { expiresAt, cached } = await client.tokens.expiry();
    const service = await serviceInfo(ctx, client);
    const hubId = await ctx.hubId().catch(() => null);
    const hub = hubId ? await client.get<{ id: string; name: string }>(`/hubs/${hubId}`).catch(() => null) : null;
    return item({
      profile: { name: conn.profile, source: sources.profile },
      clientId: { value: conn.accessToken ? null : conn.clientId, source: sources.clientId },
      clientSecret: { value: conn.accessToken ? '(not set)' : '(set; never shown)', source: sources.clientSecret },
      accessToken: { value: conn.accessToken ? '(set; never shown)' : '(not set)', source: sources.accessToken },
      service: { mode: service.mode, apiUrl: service.apiUrl, apiUrlSource: sources.apiUrl, authUrl: conn.embedded ? 'sandbox' : conn.authUrl, authUrlSource: sources.authUrl },
      hub: hub ? { name: hub.name, id: hub.id, source: sources.hub } : { name: null, id: null, source: 'none chosen (several hubs or none; give --hub)' },
      token: {
        kind: conn.accessToken ? 'personal access token (never refreshed)' : 'client credentials',
        expiresAt: expiresAt?.toISOString() ?? null,
        expiresInSeconds: expiresAt ? Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000)) : null,
        cached,
      },
    });
  },
});
