import { defineCommand } from '../cli/define.js';
import { secretOption } from '../cli/input.js';
import type { Context } from '../cli/context.js';
import { EMBEDDED_ORIGIN, SANDBOX, SANDBOX_ADMIN, type Connection } from '../config/resolve.js';
import { dataDir } from '../config/paths.js';
import { readProfiles, writeProfiles, type Profile } from '../config/profiles.js';
import { UsageError } from '../core/errors.js';
import { done } from '../output/result.js';

interface Opts {
  clientId?: string;
  clientSecret?: string;
  clientSecretStdin?: boolean;
  token?: string;
  tokenStdin?: boolean;
  apiUrl?: string;
  authUrl?: string;
  deliveryUrl?: string;
  hub?: string;
  sandbox?: boolean;
  protected?: boolean;
  verify: boolean;
}

export default defineCommand<Opts>({
  summary: 'Save a profile: client credentials or a personal access token, API and auth URLs, default hub',
  description:
    'Saves a profile (named with --profile, default "default") and makes it current. On a terminal, missing values are asked for; otherwise they are a usage error. The credentials are checked by requesting a token unless --no-verify. The file is written with mode 0600.\n\nA personal access token (--token-stdin, or --token; organisations with single sign-on issue only those) replaces the client id and secret: it is sent as it is and never refreshed, so when it expires or is revoked commands fail with exit 4 until you log in with a new one. CMS_ACCESS_TOKEN gives one for a single command.',
  examples: [
    'cms login --api-url https://api.example.com --client-id my-id --client-secret-stdin < secret.txt',
    'cms login --profile local --api-url http://127.0.0.1:8787 --client-id sandbox-admin --client-secret sandbox-secret',
    'cms login --profile editor --sandbox --client-id editor --client-secret s3cret --hub demo',
    'cms login --profile prod --sandbox --hub demo --protected',
    'cms sandbox client token sandbox-admin --expires-in 8h | cms login --profile sso --sandbox --token-stdin',
  ],
  options: [
    { flags: '--client-id <id>', description: 'API client id' },
    { flags: '--client-secret <secret>', description: 'API client secret (prefer --client-secret-stdin: flags show in process lists)' },
    { flags: '--client-secret-stdin', description: 'read the client secret from standard input' },
    { flags: '--token <token>', description: 'personal access token instead of client credentials (prefer --token-stdin: flags show in process lists)' },
    { flags: '--token-stdin', description: 'read the personal access token from standard input' },
    { flags: '--api-url <url>', description: 'API base URL, e.g. https://api.example.com' },
    { flags: '--auth-url <url>', description: 'authorization server URL (default: the API origin)' },
    { flags: '--delivery-url <url>', description: 'Content Delivery 2 URL, {hubName} for the hub name (default: https://{hubName}.cdn.content.amplience.net for the hosted service, {API origin}/cdn/{hubName} otherwise)' },
    { flags: '--hub <id|name>', description: 'default hub of the profile' },
    { flags: '--sandbox', description: 'use the embedded sandbox (defaults to its admin client)' },
    { flags: '--protected', description: "protect the profile: every write asks to type the hub's name first, and needs --yes without a terminal (see cms profile protect)" },
    { flags: '--no-verify', description: 'save without checking the credentials' },
  ],
  async run(ctx, _args, opts) {
    const name = ctx.globals.profile ?? 'default';
    const profile: Profile = {};
    const token = await secretOption(opts.token, opts.tokenStdin, { flag: '--token', stdin: '--token-stdin' });
    if (token !== undefined) {
      if (opts.clientId || opts.clientSecret || opts.clientSecretStdin) throw new UsageError('Give a personal access token or client credentials, not both');
      if (/\s/.test(token) || token.length > 8192) throw new UsageError('The personal access token must be one word of at most 8192 characters', 'Paste the token alone, without "Bearer".');
      profile.apiUrl = opts.sandbox ? SANDBOX : opts.apiUrl;
      profile.accessToken = token;
    } else if (opts.sandbox) {
      profile.apiUrl = SANDBOX;
      profile.clientId = opts.clientId ?? SANDBOX_ADMIN.clientId;
      profile.clientSecret = (await secretFrom(opts)) ?? (profile.clientId === SANDBOX_ADMIN.clientId ? SANDBOX_ADMIN.clientSecret : undefined);
    } else {
      profile.apiUrl = opts.apiUrl;
      profile.clientId = opts.clientId;
      profile.clientSecret = await secretFrom(opts);
    }
    if (opts.authUrl) profile.authUrl = opts.authUrl;
    if (opts.deliveryUrl) {
      if (!/^https?:\/\/[^/]/i.test(opts.deliveryUrl)) throw new UsageError(`--delivery-url '${opts.deliveryUrl}' is not an http(s) URL`, 'e.g. https://{hubName}.cdn.content.amplience.net');
      profile.deliveryUrl = opts.deliveryUrl;
    }
    if (opts.hub) profile.hub = opts.hub;
    // Logging in again keeps a protection: only `cms profile unprotect` removes it.
    if (opts.protected || readProfiles(ctx.env).profiles[name]?.protected) profile.protected = true;
    await askForMissing(ctx, profile);
    if (profile.apiUrl !== SANDBOX) {
      try {
        new URL(profile.apiUrl!);
      } catch {
        throw new UsageError(`--api-url '${profile.apiUrl}' is not a URL`);
      }
    }
    if (opts.verify) await verify(ctx, profile, { apiUrl: Boolean(opts.apiUrl), authUrl: Boolean(opts.authUrl) });
    await writeProfiles((file) => ({ current: name, profiles: { ...file.profiles, [name]: profile } }), ctx.env);
    return done(`Saved profile '${name}' (${profile.apiUrl === SANDBOX ? 'embedded sandbox' : profile.apiUrl}${profile.accessToken ? ', personal access token' : ''}${profile.protected ? ', protected' : ''}) and made it current`);
  },
});

function secretFrom(opts: Opts): Promise<string | undefined> {
  return secretOption(opts.clientSecret, opts.clientSecretStdin, { flag: '--client-secret', stdin: '--client-secret-stdin' });
}

async function askForMissing(ctx: Context, profile: Profile): Promise<void> {
  const withToken = profile.accessToken !== undefined;
  const missing = [
    !profile.apiUrl && '--api-url',
    !withToken && !profile.clientId && '--client-id',
    !withToken && !profile.clientSecret && '--client-secret (or --client-secret-stdin)',
  ].filter(Boolean) as string[];
  if (!missing.length) return;
  if (!ctx.io.canPrompt) throw new UsageError(`Missing ${missing.join(', ')}`, `Give them as flags (not asked: ${ctx.io.noPromptReason}), or use --sandbox for the embedded sandbox.`);
  const { input, password } = await import('@inquirer/prompts');
  const io = { output: ctx.io.promptStream(), signal: ctx.signal };
  profile.apiUrl ??= await input({ message: 'API URL (e.g. https://api.example.com, or "sandbox"):', required: true }, io);
  if (withToken) return;
  profile.clientId ??= await input({ message: 'Client id:', required: true }, io);
  profile.clientSecret ??= await password({ message: 'Client secret:', mask: '*' }, io);
}

async function verify(ctx: Context, profile: Profile, flagged: { apiUrl: boolean; authUrl: boolean }): Promise<void> {
  const embedded = profile.apiUrl === SANDBOX;
  const base = embedded ? EMBEDDED_ORIGIN : profile.apiUrl!.replace(/\/+$/, '');
  const conn: Connection = {
    profile: null,
    source: 'flag',
    embedded,
    apiUrl: base,
    authUrl: (profile.authUrl ?? (embedded ? EMBEDDED_ORIGIN : new URL(base).origin)).replace(/\/+$/, ''),
    clientId: profile.clientId ?? '',
    clientSecret: profile.clientSecret ?? '',
    ...(profile.accessToken ? { accessToken: profile.accessToken } : {}),
    dataDir: dataDir(ctx.env),
    // Hints name the flags the URLs came from (an unreachable --api-url is not "the sandbox default").
    sources: {
      profile: 'flag',
      apiUrl: flagged.apiUrl ? 'flag' : 'default',
      authUrl: flagged.authUrl ? 'flag' : 'default',
      deliveryUrl: 'default',
      clientId: profile.accessToken ? 'default' : 'flag',
      clientSecret: profile.accessToken ? 'default' : 'flag',
      accessToken: profile.accessToken ? 'flag' : 'default',
      hub: 'default',
    },
  };
  // Requests a token (a personal one is sent as it is), then reads one page of hubs: proves the URL and the credentials.
  const client = await ctx.connect(conn);
  await client.get('/hubs', { query: { size: 1 } });
}
