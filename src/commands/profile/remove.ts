import { defineCommand } from '../../cli/define.js';
import { readProfiles, writeProfiles } from '../../config/profiles.js';
import { UsageError, NotFound } from '../../core/errors.js';
import { done } from '../../output/result.js';

export default defineCommand({
  summary: 'Remove a saved profile',
  examples: ['cms profile remove old-staging'],
  args: [{ name: 'name', description: 'profile name', required: true }],
  async run(ctx, args) {
    if (!readProfiles(ctx.env).profiles[args.name]) throw new NotFound(`No profile named '${args.name}'`);
    await writeProfiles((file) => {
      const { [args.name]: _removed, ...profiles } = file.profiles;
      return { current: file.current === args.name ? undefined : file.current, profiles };
    }, ctx.env);
    return done(`Removed profile '${args.name}'`);
  },
});
