import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// sizeHeapFor changes V8's settings for the rest of the process, so each case runs in a process
// of its own, on the built module (the suite's setup builds dist/).
const MODULE = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'ops', 'runs', 'small-heap.js')).href;

function run(script: string): Record<string, number | string> {
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', `import { sizeHeapFor, LARGE_RUN } from ${JSON.stringify(MODULE)};\n${script}`], { encoding: 'utf8' });
  expect(res.status, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, number | string>;
}

/** Leaves about 80 MB of garbage that survived long enough to be promoted (what startup leaves). */
const GARBAGE = `
  let keep = [];
  for (let i = 0; i < 1_000_000; i++) keep.push({ id: 'item-' + i, n: i });
  await new Promise((r) => setTimeout(r, 50));
  keep = null;
  const mb = () => process.memoryUsage().heapUsed / 1e6;
`;

describe('sizeHeapFor', () => {
  it('a large run starts from a collected heap, once; the main context gets no gc()', () => {
    const out = run(`${GARBAGE}
      const before = mb();
      sizeHeapFor(LARGE_RUN);
      const after = mb();
      sizeHeapFor(LARGE_RUN * 2);
      console.log(JSON.stringify({ before, after, gc: typeof globalThis.gc }));`);
    expect(Number(out.before) - Number(out.after)).toBeGreaterThan(40);
    expect(out.gc).toBe('undefined');
  });

  it('a run below LARGE_RUN items changes nothing', () => {
    const out = run(`${GARBAGE}
      const before = mb();
      sizeHeapFor(LARGE_RUN - 1);
      console.log(JSON.stringify({ before, after: mb() }));`);
    expect(Number(out.before) - Number(out.after)).toBeLessThan(5);
  });
});
