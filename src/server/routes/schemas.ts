import { created, ok, type RequestContext } from '../context.js';
import { conflict } from '../errors.js';
import { loadHub, loadSchema } from '../load.js';
import { newId } from '../ids.js';
import { saveSchema, schemas, type ContentTypeSchema } from '../store/schemas.js';
import { renderSchema } from '../resources/schema.js';
import { checkSchemaDocument } from '../schema-rules.js';
import type { Input } from '../validate.js';
import type * as bodies from '../schemas/schemas.js';

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.create>>();
  if (schemas(ctx.db).find({ where: 'hub_id = ? AND schema_id = ?', params: [hubId, input.schemaId] })) {
    throw conflict(`A schema with id ${input.schemaId} already exists in this hub`, { code: 'DUPLICATE_SCHEMA_ID', entity: 'ContentTypeSchema', property: 'schemaId', invalidValue: input.schemaId });
  }
  checkSchemaDocument(ctx.db, hubId, input.schemaId, input.body, input.validationLevel);
  const schema: ContentTypeSchema = {
    id: newId(ctx.now()),
    hubId,
    schemaId: input.schemaId,
    body: typeof input.body === 'string' ? input.body : JSON.stringify(input.body, null, 2),
    version: 1,
    validationLevel: input.validationLevel,
    status: 'ACTIVE',
    ...ctx.createdStamp(),
  };
  saveSchema(ctx.db, schema, true);
  return created(renderSchema(ctx, schema), ctx.href(`/content-type-schemas/${schema.id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderSchema(ctx, loadSchema(ctx)));
}
