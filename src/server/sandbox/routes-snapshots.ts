import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { SnapshotError } from '../core/snapshot-file.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';

// /__sandbox/snapshots: named whole-sandbox snapshots in the sandbox's snapshot directory.
// Only names cross HTTP, never paths: the admin credentials are well known, and a path would
// let anyone who reaches the sandbox write or read any file its user can (files are the CLI's
// and the programmatic API's business, in the process that owns them).

const EXT = '.snapshot';
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function fileOf(ctx: RequestContext, name: string): string {
  if (!SNAPSHOT_NAME.test(name) || name.includes('..')) {
    throw badRequest(`'${name}' is not a snapshot name: 1 to 100 letters, digits, dot, hyphen and underscore, starting with a letter or digit`, { entity: 'Snapshot', property: 'name', invalidValue: name });
  }
  return join(ctx.service.snapshotDir, name + EXT);
}

/** A snapshot's problem as the answer: 404 when it is not there, 400 when it cannot be used. */
function refused(err: unknown, name: string): never {
  if (!(err instanceof SnapshotError)) throw err;
  if (err.message.startsWith('No snapshot at')) throw notFound('Snapshot', name);
  throw badRequest(err.message.replace(/^\S*\/([^/\s]+)\.snapshot\b/, `Snapshot '$1'`), { entity: 'Snapshot', property: 'name', invalidValue: name });
}

export function listSnapshots(ctx: RequestContext) {
  let names: string[] = [];
  try {
    names = readdirSync(ctx.service.snapshotDir).filter((f) => f.endsWith(EXT)).map((f) => f.slice(0, -EXT.length)).filter((n) => SNAPSHOT_NAME.test(n)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const snapshots = names.map((name) => {
    try {
      return { name, ...ctx.service.inspectSnapshot(fileOf(ctx, name)) };
    } catch (err) {
      return { name, problem: (err as Error).message };
    }
  });
  return ok({ snapshots });
}

export function getSnapshot(ctx: RequestContext) {
  const name = ctx.params.name!;
  try {
    return ok({ name, ...ctx.service.inspectSnapshot(fileOf(ctx, name)) });
  } catch (err) {
    refused(err, name);
  }
}

/** POST {name}: saves everything under that name (replacing a snapshot of that name). */
export function saveSnapshot(ctx: RequestContext) {
  const { name } = ctx.body<Input<typeof schemas.snapshot>>();
  const file = fileOf(ctx, name);
  mkdirSync(ctx.service.snapshotDir, { recursive: true, mode: 0o700 });
  let info;
  try {
    info = ctx.service.saveSnapshot(file);
  } catch (err) {
    refused(err, name);
  }
  return created({ name, ...info }, ctx.origin + `/__sandbox/snapshots/${encodeURIComponent(name)}`);
}

export function restoreSnapshot(ctx: RequestContext) {
  const name = ctx.params.name!;
  try {
    return ok({ name, ...ctx.service.restoreSnapshot(fileOf(ctx, name)) });
  } catch (err) {
    refused(err, name);
  }
}

export function deleteSnapshot(ctx: RequestContext) {
  const name = ctx.params.name!;
  const file = fileOf(ctx, name);
  try {
    ctx.service.inspectSnapshot(file);
  } catch (err) {
    // A damaged snapshot may be deleted; a missing one is 404.
    if (err instanceof SnapshotError && err.message.startsWith('No snapshot at')) throw notFound('Snapshot', name);
  }
  rmSync(file, { force: true });
  return noContent();
}
