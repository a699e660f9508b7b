import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { commaList, readJsonObject } from '../../cli/input.js';
import { item } from '../../output/result.js';
import { indexArg, resolveIndex } from './_shared.js';

export default defineCommand<{ hub?: string; bodyFile?: string; replicas?: string[]; forwardToReplicas?: boolean }>({
  summary: 'Show the settings of a search index, or change them',
  description:
    'Without options, prints the settings. --body-file sends settings (a JSON object) that are stored as given; keys not sent keep their values. --replicas names the managed replicas (<hub name>.<replica name>, comma list): new names become replicas, names left out are deleted. --forward-to-replicas copies the other settings sent to every replica.',
  examples: ['cms index settings products', 'cms index settings products --body-file settings.json --forward-to-replicas', 'cms index settings products --replicas demo.products-by-price,demo.products-by-date'],
  args: [indexArg],
  options: [
    hubOption,
    { flags: '--body-file <file>', description: 'settings JSON from a file (- for stdin)' },
    { flags: '--replicas <names>', description: 'managed replica names, <hub name>.<name> (repeatable or comma list; "" for none)', repeatable: true },
    { flags: '--forward-to-replicas', description: 'also apply the settings sent to the replicas' },
  ],
  async run(ctx, args, opts) {
    const { client, path } = await resolveIndex(ctx, args.index, opts.hub);
    if (!opts.bodyFile && opts.replicas === undefined) return item(await client.get(`${path}/settings`));
    const settings = opts.bodyFile ? await readJsonObject(opts.bodyFile) : {};
    if (opts.replicas !== undefined) settings.replicas = commaList(opts.replicas);
    return item(await client.patch(`${path}/settings`, settings, { query: { forwardToReplicas: opts.forwardToReplicas ? 'true' : undefined } }));
  },
});
