import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { fakeService } from '../helpers/fake-service.js';

// Item tables read each workflow state's label once. A service (CMS_API_URL may be one we do not
// control) that gives every item a state of its own must not turn one list into one request per
// item: the labels read per command are bounded, past that a state shows its id.

const REPO = 'a'.repeat(24);
const N = 300;
const stateId = (i: number) => i.toString(16).padStart(24, '0');

describe('workflow labels against a hostile service', () => {
  const home = new CliHome();
  let service: Awaited<ReturnType<typeof fakeService>>;
  let stateReads = 0;
  beforeAll(async () => {
    const items = Array.from({ length: N }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, label: `Item ${i}`, version: 1, status: 'ACTIVE', locale: null, body: { _meta: { schema: 'https://schemas.example.com/a.json' } }, workflow: { state: stateId(i) } }));
    service = await fakeService((path) => {
      if (path === `/v2/content/content-repositories/${REPO}/content-items`) return { body: { _embedded: { 'content-items': items }, page: { size: N, totalElements: N, totalPages: 1, number: 0 } } };
      const m = /^\/v2\/content\/workflow-states\/([0-9a-f]{24})$/.exec(path);
      if (m) {
        stateReads++;
        return { body: { id: m[1], label: `State ${parseInt(m[1]!, 16)}` } };
      }
      return undefined;
    });
  });
  afterAll(() => {
    service.close();
    home.cleanup();
  });

  it('reads a bounded number of labels; the other states show their ids', async () => {
    const res = await home.run(['item', 'list', '--repo', REPO, '--all'], { env: service.env });
    expect(res.exitCode, res.stderr).toBe(0);
    const last = res.stdout.replace(/\n$/, '').split('\n').map((l) => l.split('\t').at(-1));
    expect(last).toHaveLength(N);
    expect(last[0]).toBe('State 0');
    expect(stateReads).toBeLessThanOrEqual(50);
    expect(last[N - 1]).toBe(stateId(N - 1));
  });
});
