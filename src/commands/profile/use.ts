import { defineCommand } from '../../cli/define.js';
import { readProfiles, writeProfiles } from '../../config/profiles.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';

export default defineCommand({
  summary: 'Make a profile the current one',
  examples: ['cms profile use staging'],
  args: [{ name: 'name', description: 'profile name', required: true }],
  async run(ctx, args) {
    const known = Object.keys(readProfiles(ctx.env).profiles);
    if (!known.includes(args.name)) throw new UsageError(`No profile named '${args.name}'`, known.length ? `Known profiles: ${known.join(', ')}` : 'Create one with `cms login`.');
    await writeProfiles((file) => ({ ...file, current: args.name }), ctx.env);
    return done(`Now using profile '${args.name}'`);
  },
});
