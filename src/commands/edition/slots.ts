import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { limitOf, limitOption, allOption, yesOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { done, list } from '../../output/result.js';
import { EDITION_SLOT_COLUMNS, editionArg } from './_edition-slots.js';

interface Options {
  add?: string[];
  remove?: string;
  copyFrom?: string;
  yes?: boolean;
  limit: number;
}

export default defineCommand<Options>({
  summary: 'List, add, copy or remove the slots of an edition',
  description:
    'Without a flag, lists the edition slots. --add associates slots (content items of a slots repository) with the edition; each takes one of the edition’s 200 slotsRemaining. --copy-from copies another edition’s slot with its content. --remove takes an edition slot out. Only a DRAFT edition changes.',
  examples: [
    'cms edition slots 5f1a2b3c4d5e6f7a8b9c0d1e',
    'cms edition slots 5f1a2b3c4d5e6f7a8b9c0d1e --add 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --add 7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    'cms edition slots 5f1a2b3c4d5e6f7a8b9c0d1e --copy-from 6a7b8c9d0e1f2a3b4c5d6e7f',
    'cms edition slots 5f1a2b3c4d5e6f7a8b9c0d1e --remove 6a7b8c9d0e1f2a3b4c5d6e7f --yes',
  ],
  args: [editionArg],
  options: [
    { flags: '--add <slot>', description: 'slot (content item id) to associate (repeatable)', repeatable: true },
    { flags: '--copy-from <edition-slot>', description: 'edition slot of another edition to copy, content included' },
    { flags: '--remove <edition-slot>', description: 'edition slot to take out of the edition' },
    yesOption,
    limitOption, allOption,
  ],
  async run(ctx, args, opts) {
    const actions = [opts.add?.length, opts.copyFrom, opts.remove].filter(Boolean).length;
    if (actions > 1) throw new UsageError('Use one of --add, --copy-from and --remove at a time');
    const client = await ctx.client();
    const slots = `/editions/${args.edition}/slots`;
    if (opts.remove) {
      await confirm(ctx, `Remove edition slot ${opts.remove} (and its content) from edition ${args.edition}?`, opts.yes);
      await client.delete(`${slots}/${opts.remove}`);
      return done(`Removed edition slot ${opts.remove}`);
    }
    if (opts.add?.length || opts.copyFrom) {
      const body = opts.copyFrom ? [] : opts.add!.map((slot) => ({ slot }));
      const answer = await client.post<{ _embedded: { 'edition-slots': unknown[] } }>(slots, body, { query: { sourceEditionSlotId: opts.copyFrom } });
      return list(answer._embedded['edition-slots'], EDITION_SLOT_COLUMNS);
    }
    return list(client.paginate(slots, 'edition-slots', { limit: limitOf(opts) }), EDITION_SLOT_COLUMNS, limitOf(opts));
  },
});
