import { readFileSync } from 'node:fs';

/** The nearest package.json of this package above this file (compiled and bundled builds sit at different depths). */
export function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'cms-cli') return pkg.version;
    } catch {
      /* none here */
    }
    if (dir.pathname === '/') return '0.0.0';
  }
}
