import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('profiles and their precedence: flag > environment > profile > sandbox default', () => {
  const home = new CliHome();
  let remote: TestServer;
  let other: TestServer;

  beforeAll(async () => {
    remote = await startServer();
    other = await startServer();
    // One hub per place, so each command shows where it went.
    await home.run(['hub', 'create', '--name', 'embedded-hub', '--label', 'E']);
    const creds = ['--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret'];
    expect((await home.run(['login', '--profile', 'remote', '--api-url', remote.url, ...creds])).exitCode).toBe(0);
    expect((await home.run(['hub', 'create', '--name', 'remote-hub', '--label', 'R'])).exitCode).toBe(0);
    expect((await home.run(['login', '--profile', 'other', '--api-url', `${other.url}/v2/content`, ...creds, '--hub', 'other-hub', '--no-verify'])).exitCode).toBe(0);
    await home.run(['hub', 'create', '--name', 'other-hub', '--label', 'O']);
    await home.run(['hub', 'create', '--name', 'other-hub-2', '--label', 'O2']);
    await home.run(['profile', 'use', 'remote']);
  });
  afterAll(async () => {
    await remote.stop();
    await other.stop();
    home.cleanup();
  });

  const hubNames = async (args: string[], env?: Record<string, string>) => {
    const res = await home.run(['hub', 'list', '--query', '[].name', ...args], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    return res.stdout.trim().split('\n');
  };

  it('the current profile is used when nothing else is said', async () => {
    expect(await hubNames([])).toEqual(['remote-hub']);
  });

  it('CMS_PROFILE beats the current profile, and --profile beats CMS_PROFILE', async () => {
    expect(await hubNames([], { CMS_PROFILE: 'other' })).toEqual(['other-hub', 'other-hub-2']);
    expect(await hubNames(['--profile', 'remote'], { CMS_PROFILE: 'other' })).toEqual(['remote-hub']);
  });

  it('CMS_API_URL overrides the profile URL, but not a profile named with --profile', async () => {
    expect(await hubNames([], { CMS_API_URL: other.url })).toEqual(['other-hub', 'other-hub-2']);
    expect(await hubNames(['--profile', 'remote'], { CMS_API_URL: other.url })).toEqual(['remote-hub']);
  });

  it('--hub beats CMS_HUB, which beats the profile hub', async () => {
    const hubOf = async (args: string[], env?: Record<string, string>) => (await home.json(['hub', 'get', ...args], { env })).name;
    expect(await hubOf(['--profile', 'other'])).toBe('other-hub');
    expect(await hubOf([], { CMS_PROFILE: 'other', CMS_HUB: 'other-hub-2' })).toBe('other-hub-2');
    expect(await hubOf(['other-hub'], { CMS_PROFILE: 'other', CMS_HUB: 'other-hub-2' })).toBe('other-hub');
  });

  it('with no profile in effect the embedded sandbox is used', async () => {
    const fresh = new CliHome();
    try {
      await fresh.run(['hub', 'create', '--name', 'local', '--label', 'L']);
      expect((await fresh.run(['hub', 'list', '--query', '[].name'])).stdout).toBe('local\n');
      const show = await fresh.json(['profile', 'show']);
      expect(show).toMatchObject({ profile: null, source: 'sandbox default', mode: 'embedded sandbox', clientId: 'sandbox-admin' });
    } finally {
      fresh.cleanup();
    }
  });

  it('an unknown profile is not found (exit 1), naming the known ones', async () => {
    const res = await home.run(['hub', 'list', '--profile', 'nope']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain("No profile named 'nope'");
    expect(res.stderr).toContain('remote');
  });

  it('the credentials file is mode 0600 and secrets are never printed', async () => {
    const file = join(home.env.CMS_CONFIG_DIR!, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('"remote"');
    for (const args of [['profile', 'list'], ['profile', 'show'], ['profile', 'show', '-o', 'json'], ['profile', 'list', '-o', 'yaml']]) {
      const res = await home.run(args);
      expect(res.exitCode).toBe(0);
      expect(res.stdout + res.stderr).not.toContain('sandbox-secret');
    }
  });

  it('login without a terminal names the missing values (exit 2) and saves nothing', async () => {
    const res = await home.run(['login', '--profile', 'half', '--api-url', remote.url]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--client-id');
    expect((await home.json(['profile', 'list'])).map((p: { name: string }) => p.name)).not.toContain('half');
  });

  it('login verifies the credentials before saving', async () => {
    const res = await home.run(['login', '--profile', 'wrong', '--api-url', remote.url, '--client-id', 'sandbox-admin', '--client-secret', 'nope']);
    expect(res.exitCode).toBe(4);
    expect((await home.json(['profile', 'list'])).map((p: { name: string }) => p.name)).not.toContain('wrong');
  });

  it('login reads the secret from stdin, and profile use/remove manage the list', async () => {
    const res = await home.run(['login', '--profile', 'stdin', '--api-url', remote.url, '--client-id', 'sandbox-admin', '--client-secret-stdin'], { input: 'sandbox-secret\n' });
    expect(res.exitCode, res.stderr).toBe(0);
    expect((await home.json(['profile', 'show'])).profile).toBe('stdin');
    expect((await home.run(['profile', 'remove', 'stdin'])).exitCode).toBe(0);
    expect((await home.json(['profile', 'show'])).profile).toBe(null);
    expect((await home.run(['profile', 'use', 'remote'])).exitCode).toBe(0);
  });
});
