import { defineCommand } from '../../cli/define.js';
import { readProfiles, writeProfiles } from '../../config/profiles.js';
import { unknownName } from '../../cli/suggest.js';
import { done } from '../../output/result.js';

export default defineCommand({
  summary: "Protect a profile: every write asks to type the hub's name first (--yes without a terminal)",
  description:
    "A protected profile (for a production hub) guards every command that writes: POST, PUT, PATCH and DELETE requests, whatever the verb. On a terminal the first write asks to type the name of the hub the command works in (the profile's name when no single hub is chosen); without a terminal the command is refused with exit 2 unless --yes is given. Reads never ask. `cms login --protected` protects a profile as it is saved.",
  examples: ['cms profile protect staging'],
  args: [{ name: 'name', description: 'profile name', required: true }],
  async run(ctx, args) {
    const known = Object.keys(readProfiles(ctx.env).profiles);
    if (!known.includes(args.name)) throw unknownName('profile named', args.name, known, 'is saved', 'Create one with `cms login`.');
    await writeProfiles((file) => {
      const profile = { ...file.profiles[args.name]! };
      if (true) profile.protected = true;
      else delete profile.protected;
      return { ...file, profiles: { ...file.profiles, [args.name]: profile } };
    }, ctx.env);
    return done(`Profile '${args.name}' is protected: writes ask to type the hub's name first, and need --yes without a terminal`);
  },
});
