import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('types', () => {
  // vitest strips types without checking them: this keeps the tests themselves type-correct.
  it('sources and tests type-check (tsconfig.test.json)', () => {
    const res = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.test.json')], { encoding: 'utf8' });
    expect(res.stdout + res.stderr, 'run `npm run typecheck`').toBe('');
    expect(res.status).toBe(0);
  }, 120_000);
});
