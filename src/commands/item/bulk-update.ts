import { defineCommand } from '../../cli/define.js';
import { readJsonFile } from '../../cli/input.js';
import { PartialFailure, UsageError } from '../../core/errors.js';
import { col, failing, list } from '../../output/result.js';

interface BulkResult {
  id: string | null;
  status: number;
  code: string;
  level: string;
  message: string | null;
}

/** The service takes at most this many entries per request. */
const BATCH = 100;

export default defineCommand<{ file?: string; ignoreSchemaValidation?: boolean }>({
  summary: 'Update many content items at once from a JSON file; prints a result per item',
  description:
    'The file holds an array of {id, version, label?, folderId?, assignees?, body?} (whole fetched items work too). Each entry succeeds or fails on its own; larger files are sent 100 entries at a time. Exits 3 when some entries failed.',
  examples: ['cms item bulk-update --file updates.json', 'cms item bulk-update --file - -o json < updates.json'],
  options: [
    { flags: '--file <file>', description: 'JSON array of updates (- for stdin)', required: true },
    { flags: '--ignore-schema-validation', description: 'store bodies even if they break their content type schema' },
  ],
  async run(ctx, _args, opts) {
    if (!opts.file) throw new UsageError('--file is required', 'Give a JSON file holding an array of {id, version, ...} updates.');
    const entries = await readJsonFile(opts.file);
    if (!Array.isArray(entries) || !entries.length) throw new UsageError(`${opts.file} must hold a non-empty JSON array of updates`);
    const client = await ctx.client();
    const query = { ignoreSchemaValidation: opts.ignoreSchemaValidation ? true : undefined };
    const results: BulkResult[] = [];
    for (let i = 0; i < entries.length; i += BATCH) {
      const answer = await client.patch<{ results: BulkResult[] }>('/content-items', entries.slice(i, i + BATCH), { query });
      for (const r of answer.results) results.push(r);
    }
    const out = list(results, [col('id'), col('status'), col('code'), col('message')]);
    const failed = results.filter((r) => r.status !== 200).length;
    return failed ? failing(out, new PartialFailure(`${failed} of ${results.length} updates failed`)) : out;
  },
});
