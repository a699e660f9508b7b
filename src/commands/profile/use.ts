import { defineCommand } from '../../cli/define.js';
import { readProfiles, writeProfiles } from '../../config/profiles.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';
import { unknownName } from '../../cli/suggest.js';

export default defineCommand({
  summary: 'Make a profile the current one',
  examples: ['cms profile use staging'],
  args: [{ name: 'name', description: 'profile name', required: true }],
  async run(ctx, args) {
    const known = Object.keys(readProfiles(ctx.env).profiles);
    if (!known.includes(args.name)) throw unknownName('profile named', args.name, known, 'is saved', 'Create one with `cms login`.');
    await writeProfiles((file) => ({ ...file, current: args.name }), ctx.env);
    return done(`Now using profile '${args.name}'`);
  },
});
