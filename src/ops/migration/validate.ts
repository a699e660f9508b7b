import type { ApiClient } from '../../core/client.js';
import type { ItemBody } from './api.js';

// Checks a migrated body against its content type's schema before anything is sent, with the
// service's own validator (as `item edit` does): the dry run reports what the service would
// refuse, and an apply skips it (unless --ignore-schema-validation). Schemas come from the
// migration's declared model first (not applied yet in a dry run), then from the hub (the
// effective content type: references inlined) or the export's schemas/ directory.

type Check = (body: ItemBody) => string[];

export class BodyValidator {
  private readonly checks = new Map<string, Promise<Check | null>>();
  private typeIds: Promise<Map<string, string>> | null = null;

  constructor(
    /** Schema documents by schema id: the declared model's, or the export's. */
    private readonly documents: Map<string, Record<string, unknown>>,
    private readonly hub?: { client: ApiClient; hubId: string },
  ) {}

  /** The problems of a body (empty when it fits, or when no schema is known for it). */
  async problems(body: ItemBody): Promise<string[]> {
    const uri = body._meta?.schema;
    if (typeof uri !== 'string') return ['body._meta.schema is missing'];
    let check = this.checks.get(uri);
    if (!check) this.checks.set(uri, (check = this.load(uri)));
    const fn = await check;
    return fn ? fn(body) : [];
  }

  private async load(uri: string): Promise<Check | null> {
    const { compile, validate } = await import('../../server/schemas/json-schema.js');
    let doc: Record<string, unknown> | undefined = this.documents.get(uri);
    if (!doc && this.hub) doc = await this.effective(uri);
    if (!doc) return null;
    try {
      const fn = compile(doc, (id) => this.documents.get(id));
      return (body) => validate(fn, body, 'body').map((p) => `${p.property}: ${p.message}`);
    } catch {
      // A schema the validator cannot use: the service's answer will say what is wrong.
      return null;
    }
  }

  private async effective(uri: string): Promise<Record<string, unknown> | undefined> {
    const { client, hubId } = this.hub!;
    this.typeIds ??= (async () => {
      const ids = new Map<string, string>();
      for await (const t of client.paginate<{ id: string; contentTypeUri: string }>(`/hubs/${hubId}/content-types`, 'content-types', { pageSize: 100 })) ids.set(t.contentTypeUri, t.id);
      return ids;
    })();
    const id = (await this.typeIds).get(uri);
    if (!id) return undefined;
    const effective = await client.get<Record<string, unknown> & { cachedSchema?: Record<string, unknown> }>(`/content-types/${id}/effective-content-type`).catch(() => null);
    if (!effective || typeof effective !== 'object') return undefined;
    const { _links: _l, ...document } = effective;
    return effective.cachedSchema ?? document;
  }
}
