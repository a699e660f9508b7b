import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { configDir } from './paths.js';
import { ensurePrivateDir } from './private-dir.js';

/** A saved connection. `apiUrl: "sandbox"` (or no apiUrl) means the embedded sandbox. */
export interface Profile {
  apiUrl?: string;
  authUrl?: string;
  /** Content Delivery 2 base URL, `{hubName}` standing for the hub's name (CMS_DELIVERY_URL). */
  deliveryUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** A personal access token (`cms login --token`): used instead of the client credentials, never refreshed. */
  accessToken?: string;
  hub?: string;
  /** Writes ask to type the hub's name first on a terminal, and need --yes without one (`cms profile protect`). */
  protected?: boolean;
}

export interface ProfileFile {
  current?: string;
  profiles: Record<string, Profile>;
}

const FILE_NAME = 'config';

export function profileFilePath(env = process.env): string {
  return join(configDir(env), `${FILE_NAME}.json`);
}

/**
 * Reads the profiles with one plain JSON read: the hot path of every command. Writing goes
 * through `conf` (atomic writes, file mode 0600), which is loaded only when something changes.
 */
export function readProfiles(env = process.env): ProfileFile {
  try {
    const data = JSON.parse(readFileSync(profileFilePath(env), 'utf8')) as Partial<ProfileFile>;
    return { current: data.current, profiles: data.profiles ?? {} };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw err;
  }
}

export async function writeProfiles(update: (file: ProfileFile) => ProfileFile, env = process.env): Promise<ProfileFile> {
  ensurePrivateDir(configDir(env), 'config directory');
  // conf is an ES module package: required (Node >= 20.19), it is its namespace in the sources and
  // in the CommonJS bundle alike, where import() of it would hand the namespace over as `default`.
  const { default: Conf } = createRequire(import.meta.url)('conf') as typeof import('conf');
  const store = new Conf<ProfileFile>({
    cwd: configDir(env),
    configName: FILE_NAME,
    configFileMode: 0o600,
    projectSuffix: '',
    defaults: { profiles: {} },
  });
  const next = update({ current: store.get('current'), profiles: store.get('profiles') ?? {} });
  store.set('profiles', next.profiles);
  if (next.current === undefined) store.delete('current');
  else store.set('current', next.current);
  return next;
}
