import { defineCommand } from '../../../cli/define.js';
import { item, text } from '../../../output/result.js';

interface Opts {
  expiresIn?: string;
}

export default defineCommand<Opts>({
  summary: 'Mint a personal access token for a sandbox client (to try `cms login --token`)',
  description:
    'Prints a personal access token for the client, as organisations with single sign-on issue them: it acts with the client\'s permissions, is never refreshed, and expires on the sandbox clock (`cms sandbox clock advance` past it to see the expiry error), or when the client is removed. Only the token is printed, so it can be piped into `cms login --token-stdin`; -o json adds its expiry.',
  examples: [
    'cms sandbox client token sandbox-admin',
    'cms sandbox client token sandbox-admin --expires-in 30d -o json',
    'cms sandbox client token sandbox-admin --expires-in 8h | cms login --profile sso --sandbox --token-stdin',
  ],
  args: [{ name: 'id', description: 'id of the client the token acts as', required: true }],
  options: [{ flags: '--expires-in <duration>', description: 'lifetime on the sandbox clock: 1s to 366d, e.g. 30m, 8h, 30d (default: 1h)' }],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const id = args.id!;
    const minted = await client.post<{ clientId: string; access_token: string; expires_in: number; expiresAt: string }>(`/__sandbox/clients/${encodeURIComponent(id)}/tokens`, opts.expiresIn ? { expiresIn: opts.expiresIn } : {});
    if (ctx.globals.output === 'json' || ctx.globals.output === 'yaml') {
      return item({ clientId: minted.clientId, accessToken: minted.access_token, expiresInSeconds: minted.expires_in, expiresAt: minted.expiresAt });
    }
    return text(`${minted.access_token}\n`);
  },
});
