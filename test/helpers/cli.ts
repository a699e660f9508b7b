import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type Options } from 'execa';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'cms.js');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** An isolated home for CLI tests: its own data and config directories. */
export class CliHome {
  readonly dir = mkdtempSync(join(tmpdir(), 'cms-cli-'));
  readonly env: Record<string, string> = {
    CMS_DATA_DIR: join(this.dir, 'data'),
    CMS_CONFIG_DIR: join(this.dir, 'config'),
    NO_COLOR: '1',
  };

  /** Runs the built binary (never throws on a non-zero exit). */
  async run(args: string[], opts: { env?: Record<string, string | undefined>; input?: string; timeout?: number; /** Options of node itself (such as V8's, which NODE_OPTIONS refuses). */ nodeArgs?: string[] } = {}): Promise<CliResult> {
    const env: Record<string, string | undefined> = { ...this.env, ...opts.env };
    // Keep the caller's environment from choosing a profile or service behind the test's back.
    for (const k of ['CMS_PROFILE', 'CMS_API_URL', 'CMS_AUTH_URL', 'CMS_DELIVERY_URL', 'CMS_CLIENT_ID', 'CMS_CLIENT_SECRET', 'CMS_ACCESS_TOKEN', 'CMS_HUB', 'CI', 'CMS_FORCE_TTY', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'GITHUB_WORKSPACE']) if (!(k in (opts.env ?? {}))) env[k] = undefined;
    const options: Options = { env, extendEnv: true, reject: false, stripFinalNewline: false, input: opts.input ?? '', timeout: opts.timeout ?? 60_000 };
    const res = await execa(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], options);
    return { exitCode: res.exitCode ?? -1, stdout: String(res.stdout), stderr: String(res.stderr) };
  }

  /** Runs and parses stdout as JSON (adds -o json). */
  async json<T = any>(args: string[], opts?: Parameters<CliHome['run']>[1]): Promise<T> {
    const res = await this.run([...args, '-o', 'json'], opts);
    if (res.exitCode !== 0) throw new Error(`cms ${args.join(' ')} exited ${res.exitCode}: ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
