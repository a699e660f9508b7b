import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CliHome } from '../helpers/cli.js';

// Issue 13: `cms item import --resume <run of another command>` crashed with "The path argument
// must be of type string"; it must say which command the run belongs to.
describe('--resume with a run of another command', () => {
  const home = new CliHome();
  afterAll(() => home.cleanup());

  it('is a usage error naming the run\'s command and how to resume it', async () => {
    expect((await home.run(['hub', 'create', '--name', 'src', '--label', 'Source'])).exitCode).toBe(0);
    const clone = await home.run(['hub', 'clone', '--from', 'sandbox:src', '--to', 'sandbox:copy']);
    expect(clone.exitCode, clone.stderr).toBe(0);
    const runId = (await home.run(['runs', '-q'])).stdout.trim().split('\n')[0]!;
    expect(runId).toMatch(/\S/);
    const dir = join(home.dir, 'export');
    mkdirSync(dir);
    for (const argv of [['item', 'import', dir, '--resume', runId, '--hub', 'src'], ['schema', 'apply', dir, '--resume', runId, '--hub', 'src']]) {
      const res = await home.run(argv);
      expect(res.exitCode, argv.join(' ')).toBe(2);
      expect(res.stderr).toContain(`Run ${runId} is a 'hub clone' run`);
      expect(res.stderr).toContain(`cms hub clone --resume ${runId}`);
      expect(res.stderr).not.toContain('unexpected');
    }
  });
});
