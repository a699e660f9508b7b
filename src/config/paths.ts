import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = NodeJS.ProcessEnv;

/** Profiles and the token cache: CMS_CONFIG_DIR, else $XDG_CONFIG_HOME/cms, else ~/.config/cms. */
export function configDir(env: Env = process.env): string {
  return env.CMS_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'cms');
}

/** The embedded sandbox's data and run journals: CMS_DATA_DIR, else $XDG_DATA_HOME/cms, else ~/.local/share/cms. */
export function dataDir(env: Env = process.env): string {
  return env.CMS_DATA_DIR || join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'cms');
}
