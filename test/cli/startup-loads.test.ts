import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// Startup is measured in bench/startup.mjs (no timed assertions here); these pin what an embedded
// command must not load, so the costs removed for issue 14 do not creep back.
describe('what an embedded command loads', () => {
  const home = new CliHome();
  const dir = mkdtempSync(join(tmpdir(), 'cms-loads-'));
  afterAll(() => {
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hub list reads no commander files, no bindings lookup, no child_process, no process.stdin', async () => {
    const hook = join(dir, 'hook.cjs');
    const out = join(dir, 'loaded.json');
    writeFileSync(
      hook,
      [
        // Records whether anything reads process.stdin (the getter builds a stream on first use).
        "const d = Object.getOwnPropertyDescriptor(process, 'stdin'); let stdin = false;",
        "Object.defineProperty(process, 'stdin', { configurable: true, enumerable: d.enumerable, get() { stdin = true; return d.get.call(process); } });",
        `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ stdin, builtins: process.moduleLoadList, files: Object.keys(require.cache) })));`,
      ].join('\n'),
    );
    expect((await home.run(['hub', 'create', '--name', 'loads', '--label', 'Loads'])).exitCode).toBe(0);
    const res = await home.run(['hub', 'list'], { env: { NODE_OPTIONS: `--require ${hook}` } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toContain('loads');
    const { stdin, builtins, files } = JSON.parse(readFileSync(out, 'utf8')) as { stdin: boolean; builtins: string[]; files: string[] };
    expect(files.filter((f) => /node_modules[\\/](commander|bindings|file-uri-to-path)[\\/]/.test(f))).toEqual([]);
    expect(files.some((f) => /better-sqlite3[\\/]lib[\\/]database\.js$/.test(f))).toBe(true);
    expect(builtins).not.toContain('NativeModule child_process');
    // process.stdin builds a stream; whether stdin is a terminal needs none.
    expect(stdin).toBe(false);
  });
});
