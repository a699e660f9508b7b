import { defineCommand } from '../../../cli/define.js';
import { item } from '../../../output/result.js';
import { isSnapshotFile, withEmbeddedService } from './_target.js';

export default defineCommand<{ force?: boolean }>({
  summary: 'Save everything in the sandbox as a snapshot (a name, or a file)',
  description:
    'Saves hubs, content and versions, clients, the signing key, the clock, pending scheduled work and the webhook queue, consistently while writes go on, to a temporary file renamed into place: an interrupted save never leaves a half-written snapshot or loses the previous one. A name (letters, digits, . - _) is kept in the sandbox (<data dir>/snapshots); a path (with a slash, e.g. ./base.snapshot) is a file, for the embedded sandbox. Saving a name or file again replaces it; a file that is neither a snapshot nor empty (a package.json given by mistake) is refused (exit 2) unless --force.',
  examples: ['cms sandbox snapshot save base', 'cms sandbox snapshot save ./fixtures/base.snapshot'],
  args: [{ name: 'target', description: 'snapshot name, or a file path (containing a slash)', required: true }],
  options: [{ flags: '--force', description: 'replace the file even when it is not a snapshot' }],
  async run(ctx, args, opts) {
    const target = args.target as string;
    if (isSnapshotFile(target)) {
      const { mkdirSync } = await import('node:fs');
      const { dirname, resolve } = await import('node:path');
      mkdirSync(dirname(resolve(target)), { recursive: true });
      return item(await withEmbeddedService(ctx, target, (service, file) => ({ file, ...service.saveSnapshot(file, { force: opts.force }) })));
    }
    const client = await ctx.client();
    return item(await client.post('/__sandbox/snapshots', { name: target }));
  },
});
