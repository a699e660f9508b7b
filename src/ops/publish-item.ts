import type { ApiClient } from '../core/client.js';
import { CliError } from '../core/errors.js';

/**
 * Publishes an item now and returns the URL of its publishing job. The service answers 204 with
 * no body and `Location: …/publishing-jobs/{id}` (the wire contract), so the job is only known
 * from that header.
 */
export async function publishItem(client: ApiClient, itemId: string, idempotencyKey?: string): Promise<string> {
  const res = await client.request('POST', `/content-items/${itemId}/publish`, { body: {}, idempotencyKey });
  const location = res.headers.get('location');
  if (!location) throw new CliError(`Publishing item ${itemId}: the service answered ${res.status} without the Location of the publishing job`);
  return location;
}
