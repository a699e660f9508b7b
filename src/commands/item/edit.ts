import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { editUntilValid, editorCommand } from '../../cli/editor.js';
import { parseJson } from '../../ops/files/safe-files.js';
import { isCI } from '../../cli/io.js';
import type { ApiClient } from '../../core/client.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../core/errors.js';
import { canonicalJson } from '../../ops/files/content-files.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS, fetchItem, itemArg, type ItemResource } from './_shared.js';

export default defineCommand<{ ignoreSchemaValidation?: boolean }>({
  summary: "Edit the body of a content item in your editor ($VISUAL or $EDITOR)",
  description:
    "Opens the item's body as pretty JSON in $VISUAL or $EDITOR (a 0600 file in a private temporary directory; the command is split into words and run directly, never by a shell). When the editor exits, the body is checked as JSON (errors say line and column) and against the item's content type schema; when it is not valid, the editor opens again on your text with the error on top (like kubectl edit; save it unchanged to give up). Then it is saved with the version that was opened, so a change made meanwhile is refused (409, exit 1) instead of overwritten. On any failure nothing is saved and the edited file is kept: its path is printed. An unchanged body is not saved. Without VISUAL or EDITOR, vi on a terminal; outside a terminal, with --no-input or in CI, set EDITOR.",
  examples: [
    'cms item edit 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c',
    'EDITOR="code --wait" cms item edit 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c',
    'cms item edit 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --dry-run',
  ],
  args: [itemArg],
  options: [{ flags: '--ignore-schema-validation', description: 'save the body even if it breaks the content type schema' }],
  async run(ctx, args, opts) {
    const words = editorFor(ctx);
    const client = await ctx.client();
    const current = await fetchItem(client, args.item);
    const original = `${JSON.stringify(current.body, null, 2)}\n`;
    // mkdtemp makes the directory 0700: only its owner can see the file, whatever its umask.
    const dir = mkdtempSync(join(tmpdir(), 'cms-edit-'));
    const file = join(dir, `${args.item}.json`);
    writeFileSync(file, original, { mode: 0o600 });
    try {
      const outcome = await editUntilValid(words, file, async (text) => {
        const body = parseJson(text, 'The edited body');
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UsageError('The edited body must be a JSON object: nothing was saved');
        if (text === original || canonicalJson(body) === canonicalJson(current.body)) return null;
        if (!opts.ignoreSchemaValidation) await checkSchema(client, current, body as Record<string, unknown>);
        const request = { body, label: current.label, folderId: current.folderId, locale: current.locale, assignees: current.assignees, version: current.version };
        const query = { ignoreSchemaValidation: opts.ignoreSchemaValidation ? true : undefined };
        return { saved: await client.patch(`/content-items/${args.item}`, request, { query }) };
      }, (message) => ctx.io.err(message));
      rmSync(dir, { recursive: true, force: true });
      if (!outcome) {
        ctx.io.err(`No changes to item ${args.item}: nothing was saved.\n`);
        return;
      }
      return item(outcome.saved, ITEM_COLUMNS);
    } catch (err) {
      throw keptIn(ctx, err, file, current);
    }
  },
});

/** The editor to run, or a usage error saying what prevents one. */
function editorFor(ctx: Context): string[] {
  const words = editorCommand(ctx.env);
  if (words?.length) return words;
  if (ctx.io.canPrompt) return ['vi'];
  const why = !ctx.globals.input ? '--no-input is set' : isCI(ctx.env) ? 'CI is set' : 'this is not an interactive terminal';
  throw new UsageError(`No editor to open: VISUAL and EDITOR are not set, and ${why}`, 'Set EDITOR (e.g. EDITOR="code --wait"), or change the body without an editor: cms item update <id> --body-file body.json or --set body.title=...');
}

/** Every failure after the editor ran keeps the edit: the error says where the file is. */
function keptIn(ctx: Context, err: unknown, file: string, current: ItemResource): unknown {
  const kept = `Your edit is kept in ${file}`;
  if (err instanceof ApiError && err.status === 409) {
    return Object.assign(err, { message: `Item ${current.id} changed since you opened version ${current.version}: nothing was saved (${err.message})`, hint: `${kept}\n  See the other change with \`cms item diff ${current.id}\`, then edit again.` });
  }
  if (err instanceof CliError) return Object.assign(err, { hint: err.hint ? `${err.hint}\n  ${kept}` : kept });
  // Not a failure of ours (a dry run's stop, Ctrl-C): say where the edit is and carry on.
  ctx.io.err(`${kept}\n`);
  return err;
}

/** Checks the body against the item's content type schema before anything is sent (the service checks too). */
async function checkSchema(client: ApiClient, current: ItemResource & { contentRepositoryId?: string }, body: Record<string, unknown>): Promise<void> {
  const uri = (body._meta as { schema?: unknown } | undefined)?.schema;
  const repo = await client.get<{ hubId: string; contentTypes?: { hubContentTypeId: string; contentTypeUri: string }[] }>(`/content-repositories/${current.contentRepositoryId}`).catch(() => null);
  const typeId = repo?.contentTypes?.find((t) => t.contentTypeUri === uri)?.hubContentTypeId;
  // An unknown or unassigned schema: the service's answer (400) says what is wrong.
  if (!typeId) return;
  // The effective schema stands alone (references inlined); an older answer carried it as cachedSchema.
  const effective = await client.get<Record<string, unknown> & { cachedSchema?: Record<string, unknown> }>(`/content-types/${typeId}/effective-content-type`).catch(() => null);
  if (!effective || typeof effective !== 'object') return;
  const { _links: _l, ...document } = effective;
  const schema = effective.cachedSchema ?? document;
  // The same validator as the service: the draft the schema declares, patterns on RE2 (a remote schema cannot stall the CLI).
  const { compile, validate } = await import('../../server/schemas/json-schema.js');
  let problems;
  try {
    problems = validate(compile(schema), body, 'body');
  } catch {
    return;
  }
  if (!problems.length) return;
  const hub = await client.get<{ settings?: { contentItems?: { validation?: { ignoreSchemaValidation?: boolean } } } }>(`/hubs/${repo!.hubId}`).catch(() => null);
  if (hub?.settings?.contentItems?.validation?.ignoreSchemaValidation) return;
  throw new CliError(
    `The edited body does not match the schema ${String(uri)}: nothing was saved\n${problems.map((p) => `  ${p.property}: ${p.message}`).join('\n')}`,
    ExitCode.USAGE,
  );
}
