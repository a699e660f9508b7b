import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { runInPty, KEY } from '../helpers/pty.js';

// Protected profiles (issue 34, "what users of the peers have"): every write asks to type the
// hub's name on a terminal, and is refused without --yes elsewhere. Decided at one chokepoint
// (ApiClient.request: any method but GET and HEAD), so no verb can forget it.
describe('protected profiles', () => {
  const home = new CliHome();
  const repoNames = async (profile = 'prod') => (await home.run(['repo', 'list', '--profile', profile, '--query', '[].name'])).stdout.trim().split('\n');

  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'live', '--label', 'Live'])).exitCode).toBe(0);
    expect((await home.run(['login', '--profile', 'prod', '--sandbox', '--hub', 'live', '--protected'])).exitCode).toBe(0);
    expect((await home.run(['login', '--profile', 'dev', '--sandbox', '--hub', 'live'])).exitCode).toBe(0);
  });
  afterAll(() => home.cleanup());

  it('without a terminal every write is refused (exit 2, nothing sent) unless --yes; reads never ask', async () => {
    const refused = await home.run(['repo', 'create', '--name', 'one', '--label', 'One', '--profile', 'prod']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("Profile 'prod' is protected: a write (POST) needs confirmation");
    expect(refused.stderr).toContain('Pass --yes');
    expect(await repoNames()).not.toContain('one');
    // Other verbs and methods: the raw API (PATCH, DELETE) and a verb with no confirmation of its own.
    const hubId = (await home.json(['hub', 'get', 'live'])).id;
    expect((await home.run(['api', 'PATCH', `/hubs/${hubId}`, '--body', '{"label":"x"}', '--profile', 'prod'])).exitCode).toBe(2);
    expect((await home.json(['hub', 'get', 'live'])).label).toBe('Live');
    // --yes anywhere on the line, before or after the verb.
    expect((await home.run(['repo', 'create', '--name', 'one', '--label', 'One', '--profile', 'prod', '--yes'])).exitCode).toBe(0);
    expect((await home.run(['--yes', 'repo', 'create', '--name', 'two', '--label', 'Two', '--profile', 'prod'])).exitCode).toBe(0);
    expect(await repoNames()).toEqual(expect.arrayContaining(['one', 'two']));
    // Reads and a dry run send no write: never asked.
    expect((await home.run(['repo', 'list', '--profile', 'prod'])).exitCode).toBe(0);
    expect((await home.run(['--dry-run', 'repo', 'create', '--name', 'three', '--label', 'T', '--profile', 'prod'])).exitCode).toBe(0);
    // An unprotected profile on the same hub writes as before.
    expect((await home.run(['repo', 'create', '--name', 'four', '--label', 'Four', '--profile', 'dev'])).exitCode).toBe(0);
  });

  it('on a terminal it asks to type the hub name: the right name writes, another cancels (exit 2)', async () => {
    const env = { ...home.env };
    const wrong = await runInPty(['repo', 'create', '--name', 'five', '--label', 'Five', '--profile', 'prod'], env, [["Profile 'prod' is protected. Type the hub's name \\(live\\) to write", `production${KEY.enter}`]]);
    expect(wrong.failed, wrong.transcript).toBeNull();
    expect(wrong.exitCode, wrong.transcript).toBe(2);
    expect(wrong.transcript).toContain("Cancelled: 'production' is not the hub's name; nothing was changed.");
    expect(await repoNames()).not.toContain('five');
    const right = await runInPty(['repo', 'create', '--name', 'five', '--label', 'Five', '--profile', 'prod'], env, [["Type the hub's name \\(live\\)", `live${KEY.enter}`]]);
    expect(right.exitCode, right.transcript).toBe(0);
    expect(await repoNames()).toContain('five');
  });

  it('protect and unprotect; login again keeps the protection; show and list say it', async () => {
    expect((await home.run(['profile', 'protect', 'dev'])).exitCode).toBe(0);
    expect((await home.run(['repo', 'create', '--name', 'six', '--label', 'Six', '--profile', 'dev'])).exitCode).toBe(2);
    expect((await home.json(['profile', 'show', 'dev'])).protected).toBe(true);
    expect((await home.run(['login', '--profile', 'dev', '--sandbox', '--hub', 'live'])).exitCode).toBe(0);
    expect((await home.json(['profile', 'show', 'dev'])).protected).toBe(true);
    const list = await home.json<{ name: string; protected: boolean }[]>(['profile', 'list']);
    expect(list.find((p) => p.name === 'dev')?.protected).toBe(true);
    expect((await home.run(['profile', 'unprotect', 'dev'])).exitCode).toBe(0);
    expect((await home.run(['repo', 'create', '--name', 'six', '--label', 'Six', '--profile', 'dev'])).exitCode).toBe(0);
    const unknown = await home.run(['profile', 'protect', 'nosuch']);
    expect(unknown.exitCode).toBe(1);
  });

  it('a cross-profile copy into a protected profile asks too (the guard is per connection)', async () => {
    // Moving content with --to-profile writes through the protected profile's client.
    const res = await home.run(['repo', 'create', '--name', 'seven', '--label', 'Seven', '--profile', 'dev']);
    expect(res.exitCode).toBe(0);
    const refused = await home.run(['hub', 'clone', '--from', 'dev:live', '--to', 'prod:copy']);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("Profile 'prod' is protected");
  });
});
