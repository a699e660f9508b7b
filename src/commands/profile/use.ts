import { defineCommand } from '../../cli/define.js';
import { readProfiles, writeProfiles } from '../../config/profiles.js';
import { done } from '../../output/result.js';
import { unknownName } from '../../cli/suggest.js';

/** The name that means "no profile: the embedded sandbox" (unless a profile has that name). */
const SANDBOX = 'sandbox';

export default defineCommand({
  summary: 'Make a profile the current one (sandbox: back to the embedded sandbox)',
  description: '`cms profile use sandbox` leaves the current profile (it stays saved) and goes back to the embedded sandbox, unless a saved profile is named sandbox.',
  examples: ['cms profile use staging', 'cms profile use sandbox'],
  args: [{ name: 'name', description: 'profile name, or sandbox for the embedded sandbox', required: true }],
  async run(ctx, args) {
    const known = Object.keys(readProfiles(ctx.env).profiles);
    if (args.name === SANDBOX && !known.includes(SANDBOX)) {
      await writeProfiles((file) => ({ ...file, current: undefined }), ctx.env);
      return done('Now using the embedded sandbox (no profile)');
    }
    if (!known.includes(args.name)) throw unknownName('profile named', args.name, [...known, SANDBOX], 'is saved', 'Create one with `cms login`, or use `cms profile use sandbox` for the embedded sandbox.');
    await writeProfiles((file) => ({ ...file, current: args.name }), ctx.env);
    return done(`Now using profile '${args.name}'`);
  },
});
