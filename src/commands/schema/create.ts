import { defineCommand } from '../../cli/define.js';
import { readJsonObject } from '../../cli/input.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import { UsageError } from '../../core/errors.js';
import { col, item } from '../../output/result.js';
import { SCHEMA_COLUMNS, documentId, schemaFileOption, validationLevelOption, type SchemaResource } from './_shared.js';

interface Opts {
  hub?: string;
  file?: string;
  schemaId?: string;
  validationLevel: string;
  register?: boolean;
  label?: string;
  repo?: string;
}

const REGISTERED_COLUMNS = [
  col('schema', 'schema.id'),
  col('schema id', 'schema.schemaId'),
  col('type', 'contentType.id'),
  col('label', 'contentType.settings.label'),
  col('repository', 'repositoryId'),
];

export default defineCommand<Opts>({
  summary: 'Create a content type schema from a JSON Schema file, and optionally register and assign its type',
  description:
    "Creates the schema from --file (its id is the schema id unless --schema-id is given). With --register --label, also registers it as a content type, and with --repo assigns that type to a repository: a new content type ready for items in one step.",
  examples: [
    'cms schema create --file banner.json',
    'cms schema create --file banner.json --register --label Banner --repo content',
    'cat slot.json | cms schema create --file - --validation-level SLOT',
  ],
  options: [
    hubOption,
    schemaFileOption,
    { flags: '--schema-id <url>', description: "the schema id URL (default: the document's id)" },
    { ...validationLevelOption, default: 'CONTENT_TYPE' },
    { flags: '--register', description: 'also register the schema as a content type' },
    { flags: '--label <label>', description: 'label of the registered content type (with --register)' },
    { ...repoOption, description: 'assign the registered content type to this repository (with --register)' },
  ],
  async run(ctx, _args, opts) {
    if (!opts.file) throw new UsageError('Give the schema document with --file <file> (- for stdin)');
    if (opts.register && !opts.label) throw new UsageError('--register needs --label <label> for the content type');
    if (!opts.register && (opts.label || opts.repo)) throw new UsageError('--label and --repo apply to the registered content type; add --register');
    const doc = await readJsonObject(opts.file);
    const schemaId = opts.schemaId ?? documentId(doc);
    if (!schemaId) throw new UsageError(`${opts.file} has no id`, 'Give the schema id URL with --schema-id <url>.');

    const client = await ctx.client();
    const hubId = await ctx.hubId(opts.hub, client);
    // Resolve the repository first: a mistyped name should change nothing.
    const repositoryId = opts.repo ? await repoId(ctx, opts.repo, opts.hub, client) : undefined;
    const schema = await client.post<SchemaResource>(`/hubs/${hubId}/content-type-schemas`, { schemaId, body: JSON.stringify(doc, null, 2), validationLevel: opts.validationLevel });
    if (!opts.register) return item(schema, SCHEMA_COLUMNS);

    ctx.io.note(`Created schema ${schemaId}`);
    const contentType = await client.post<{ id: string }>(`/hubs/${hubId}/content-types`, { contentTypeUri: schemaId, settings: { label: opts.label } });
    ctx.io.note(`Registered content type ${contentType.id}`);
    if (repositoryId) await client.post(`/content-repositories/${repositoryId}/content-types`, { contentTypeId: contentType.id });
    return item({ schema, contentType, ...(repositoryId ? { repositoryId } : {}) }, REGISTERED_COLUMNS);
  },
});
