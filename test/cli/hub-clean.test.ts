import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// Issue 22 (the cleanup): `cms hub clean <hub>` does what the vendor's cleanup does: archive every
// item, delete the folders (archived items do not hold them open, 22.8), archive the types and
// schemas. Confirmation unless --yes, --dry-run shows the plan and never asks, journaled.

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'dc-cli');
const home = new CliHome();
const fixture = join(home.dir, 'dc');

async function jsonAnyExit(args: string[]) {
  const res = await home.run([...args, '-o', 'json']);
  let data: any;
  try {
    data = JSON.parse(res.stdout);
  } catch {
    data = undefined;
  }
  return { ...res, data };
}

const state = async () => ({
  active: (await home.json<any[]>(['item', 'list', '--hub', 'tidy', '--repo', 'content', '--limit', '0', '--status', 'ACTIVE'])).length,
  folders: (await home.json<any[]>(['folder', 'list', '--hub', 'tidy', '--repo', 'content'])).length,
  types: (await home.json<any[]>(['type', 'list', '--hub', 'tidy', '--status', 'ACTIVE'])).length,
  schemas: (await home.json<any[]>(['schema', 'list', '--hub', 'tidy', '--status', 'ACTIVE'])).length,
});

beforeAll(async () => {
  cpSync(FIXTURE, fixture, { recursive: true });
  await home.json(['hub', 'create', '--name', 'tidy', '--label', 'tidy']);
  await home.json(['repo', 'create', '--hub', 'tidy', '--name', 'content', '--label', 'Website Content']);
  for (const [noun, dir] of [['schema', 'content-type-schemas'], ['type', 'content-types']]) expect((await home.run([noun, 'apply', join(fixture, dir), '--hub', 'tidy'])).exitCode).toBe(0);
  const imported = await home.run(['item', 'import', join(fixture, 'content'), '--hub', 'tidy']);
  expect(imported.exitCode, imported.stderr).toBe(0);
});
afterAll(() => home.cleanup());

describe('cms hub clean', () => {
  it('--dry-run shows the plan, never asks, and changes nothing', async () => {
    const before = await state();
    expect(before.active).toBe(4);
    expect(before.folders).toBeGreaterThan(0);
    const dry = await jsonAnyExit(['hub', 'clean', 'tidy', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const actions = dry.data.plan.map((p: any) => `${p.action} ${p.resource}`);
    expect(actions.filter((a: string) => a === 'archive item')).toHaveLength(4);
    expect(actions.filter((a: string) => a === 'delete folder').length).toBeGreaterThanOrEqual(1);
    expect(actions).toContain('archive type');
    expect(actions).toContain('archive schema');
    // Items first, then folders, then types, then schemas.
    expect(actions.indexOf('delete folder')).toBeGreaterThan(actions.lastIndexOf('archive item'));
    expect(actions.indexOf('archive schema')).toBeGreaterThan(actions.lastIndexOf('archive type'));
    expect(await state()).toEqual(before);
  });

  it('without --yes and without a terminal it is refused (exit 2) and changes nothing', async () => {
    const before = await state();
    const res = await home.run(['hub', 'clean', 'tidy']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--yes');
    expect(await state()).toEqual(before);
  });

  it('a hub must be named', async () => {
    expect((await home.run(['hub', 'clean', '--yes'])).exitCode).toBe(2);
  });

  it('--yes archives every item, deletes the folders, archives the types and schemas; journaled; a rerun has nothing left', async () => {
    const res = await jsonAnyExit(['hub', 'clean', 'tidy', '--yes']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ archived: 4, failed: 0 });
    expect(res.data.runId).toMatch(/\S/);
    expect(await state()).toEqual({ active: 0, folders: 0, types: 0, schemas: 0 });
    const runs = await home.json<any[]>(['runs']);
    expect(runs.some((r) => r.id === res.data.runId && r.command === 'hub clean' && r.status === 'completed')).toBe(true);
    const again = await jsonAnyExit(['hub', 'clean', 'tidy', '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.data.failed).toBe(0);
    expect(again.data.archived ?? 0).toBe(0);

    // cms undo brings the items, types and schemas back; the deleted folders stay deleted.
    const undo = await home.run(['undo', res.data.runId, '--yes']);
    expect(undo.exitCode, undo.stderr).toBe(0);
    expect(await state()).toEqual({ active: 4, folders: 0, types: 1, schemas: 1 });
  });
});
