import type { Context } from '../cli/context.js';
import type { ApiClient } from '../core/client.js';

export interface ServiceInfo {
  mode: 'embedded sandbox' | 'served sandbox' | 'remote service';
  apiUrl: string;
  /** The service's version and database schema version, when it says (a sandbox does). */
  version: string;
  schemaVersion: string;
}

/**
 * Which service the connection reaches: the embedded sandbox, a sandbox served over HTTP (it
 * answers /__sandbox/status), or another service, whose versions are unknown.
 */
export async function serviceInfo(ctx: Context, client: ApiClient): Promise<ServiceInfo> {
  const conn = ctx.connection();
  const status = await client.get<{ version?: string; schema?: { version?: number; migration?: string } }>('/__sandbox/status').catch(() => null);
  const mode = conn.embedded ? 'embedded sandbox' : status?.version ? 'served sandbox' : 'remote service';
  const schema = status?.schema;
  return {
    mode,
    apiUrl: conn.embedded ? `sandbox (${conn.dataDir})` : conn.apiUrl,
    version: status?.version ?? 'unknown',
    schemaVersion: schema?.version !== undefined ? `${schema.version} (${schema.migration ?? 'unnamed'})` : 'unknown',
  };
}
