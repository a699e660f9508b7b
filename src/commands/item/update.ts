import { defineCommand } from '../../cli/define.js';
import { applySets, commaList, readJsonObject } from '../../cli/input.js';
import { bodyFileOption, setOption, setStringOption } from '../../cli/options.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { ITEM_COLUMNS, applyLinks, fetchItem, itemArg, labelOne, linkOption } from './_shared.js';

interface Options {
  label?: string;
  folder?: string;
  locale?: string;
  assignee?: string[];
  version?: number;
  ignoreSchemaValidation?: boolean;
  bodyFile?: string;
  set?: string[];
  setString?: string[];
  link?: string[];
}

export default defineCommand<Options>({
  summary: 'Update a content item (a new version)',
  description:
    'Fetches the item and sends it back with the changes: --body-file fields, then the flags, then --set edits (body.title=Hello edits the current body). The update names the version it was made from, so a concurrent change is never overwritten: without --version a conflict (409) reads the item again and applies the same edits to it, once; with --version (the version you pin) the conflict is the answer (exit 1).',
  examples: [
    'cms item update 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --set body.title=Hello',
    'cms item update 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --label "Home page"',
    'cms item update 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --body-file changes.json',
  ],
  args: [itemArg],
  options: [
    { flags: '--label <label>', description: 'new label' },
    { flags: '--folder <id>', description: 'move to this folder of the repository' },
    { flags: '--locale <locale>', description: 'new locale' },
    { flags: '--assignee <user>', description: 'assign to these users (repeatable or comma list; replaces the assignees)', repeatable: true },
    { flags: '--version <n>', description: 'the version the change is based on (default: the current one)', integer: true },
    { flags: '--ignore-schema-validation', description: 'store the body even if it breaks the content type schema' },
    bodyFileOption,
    setOption, setStringOption, linkOption,
  ],
  async run(ctx, args, opts) {
    const fields = { label: opts.label, folderId: opts.folder, locale: opts.locale, assignees: opts.assignee ? commaList(opts.assignee) : undefined };
    const given = Object.values(fields).some((v) => v !== undefined);
    if (!given && !opts.bodyFile && !opts.set?.length && !opts.setString?.length && !opts.link?.length) throw new UsageError('Nothing to change', 'Give --set, --link, --body-file, --label, --folder, --locale or --assignee.');
    const client = await ctx.client();
    const file = opts.bodyFile ? await readJsonObject(opts.bodyFile) : undefined;
    const query = { ignoreSchemaValidation: opts.ignoreSchemaValidation ? true : undefined };
    const attempt = async () => {
      // Edits apply to the version the change is based on: the pinned one, or the current one.
      const base = await fetchItem(client, args.item, opts.version);
      const request: Record<string, unknown> = { body: base.body, label: base.label, folderId: base.folderId, locale: base.locale, assignees: base.assignees };
      if (file) Object.assign(request, structuredClone(file));
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) request[k] = v;
      applySets(request, opts.set, opts.setString);
      await applyLinks(client, request, opts.link);
      request.version = base.version;
      return client.patch(`/content-items/${args.item}`, request, { query });
    };
    try {
      return item(await labelOne(ctx, client, await attempt()), ITEM_COLUMNS);
    } catch (err) {
      // Someone saved in between: the edits are relative, so apply them to what is there now (once).
      if (opts.version !== undefined || !(err instanceof ApiError) || err.status !== 409) throw err;
      ctx.io.note(`Item ${args.item} changed while this update was sent: applying the same edits to the new version`);
      return item(await labelOne(ctx, client, await attempt()), ITEM_COLUMNS);
    }
  },
});
