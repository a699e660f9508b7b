import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/server.js';
import { contentSetup, itemBody, type ContentSetup } from '../helpers/content.js';
import { checkDatabase, openDb } from './lib/db.js';
import { serve, type Served } from './lib/serve.js';

// Crash safety: `cms sandbox serve` (the built binary, a child process) takes a stream of item
// creates and updates from concurrent writers and is killed with SIGKILL (kill -9) in the middle
// of it, at a different moment each round. Restarted on the same data directory, it must hold
// every write it acknowledged (a 2xx reached the writer); a write in flight at the kill is either
// wholly there or wholly absent; the database passes SQLite's integrity check after every kill.

const ROUNDS = 5;
const WRITERS = 4;
/** Kill once this many writes of the round were acknowledged (plus a few ms), different each round. */
const KILL_AFTER = [3, 25, 70, 140, 240];

interface Item {
  id: string;
  /** The version and label the service last acknowledged. */
  version: number;
  label: string;
  /** Every acknowledged version's label. */
  acked: Map<number, string>;
  /** An update sent but never answered: the version and label it would make. */
  pending?: { version: number; label: string };
}

const dataDir = mkdtempSync(join(tmpdir(), 'cms-crash-'));
const items = new Map<string, Item>();
/** Creates sent but never answered (no id known): label → round. */
const pendingCreates = new Map<string, number>();
const unexpected: string[] = [];
const totals = { acked: 0, ackedCreates: 0, ackedUpdates: 0, inFlightAtKill: 0, inFlightPresent: 0, inFlightAbsent: 0, kills: 0, verified: 0 };
let server: Served | null = null;
let setup: ContentSetup;

afterAll(async () => {
  await server?.kill9();
  rmSync(dataDir, { recursive: true, force: true });
});

const padding = (n: number) => 'x'.repeat((n * 7919) % 20_000);

/** One writer: creates items of its own and updates them (no two writers share an item, so no 409s). */
async function writer(api: Api, round: number, w: number, stop: { dead: boolean }, onAck: () => void): Promise<void> {
  const own: Item[] = [];
  for (let n = 0; !stop.dead; n++) {
    const label = `r${round}w${w}n${n}`;
    try {
      if (own.length === 0 || n % 3 === 0) {
        pendingCreates.set(label, round);
        const res = await api.post(`/content-repositories/${setup.repoId}/content-items`, { label, body: itemBody(setup.uri, { title: label, padding: padding(n) }) });
        if (res.status !== 201) throw new Error(`create answered ${res.status} ${res.text.slice(0, 200)}`);
        pendingCreates.delete(label);
        const item: Item = { id: res.body.id, version: res.body.version, label, acked: new Map([[res.body.version, label]]) };
        items.set(item.id, item);
        own.push(item);
        totals.ackedCreates++;
      } else {
        const item = own[n % own.length]!;
        const version = item.version + 1;
        item.pending = { version, label };
        const res = await api.patch(`/content-items/${item.id}`, { label, version: item.version, body: itemBody(setup.uri, { title: label, padding: padding(n) }) });
        if (res.status !== 200) throw new Error(`update answered ${res.status} ${res.text.slice(0, 200)}`);
        if (res.body.version !== version) unexpected.push(`${label}: update answered version ${res.body.version}, expected ${version}`);
        item.pending = undefined;
        item.version = version;
        item.label = label;
        item.acked.set(version, label);
        totals.ackedUpdates++;
      }
      totals.acked++;
      onAck();
    } catch (err) {
      // A write that got no answer is expected only once the server is being killed.
      if (!stop.dead) unexpected.push(`${label}: ${(err as Error).message} ${(err as Error & { cause?: Error }).cause?.message ?? ''}`);
      return;
    }
  }
}

/** Every acknowledged write is there; each write in flight at a kill is there wholly or not at all. */
async function verify(api: Api): Promise<void> {
  for (const item of items.values()) {
    const got = await api.get(`/content-items/${item.id}`);
    expect(got.status, `acknowledged item ${item.label} lost`).toBe(200);
    const p = item.pending;
    if (p) {
      totals.inFlightAtKill++;
      // The update in flight: either it happened (the next version, with its label) or not at all.
      expect([item.version, p.version]).toContain(got.body.version);
      if (got.body.version === p.version) {
        expect(got.body.label).toBe(p.label);
        totals.inFlightPresent++;
        item.version = p.version;
        item.label = p.label;
        item.acked.set(p.version, p.label);
      } else {
        expect(got.body.label).toBe(item.label);
        totals.inFlightAbsent++;
      }
      item.pending = undefined;
    } else {
      expect(got.body.version, `${item.label}`).toBe(item.version);
      expect(got.body.label).toBe(item.label);
    }
    for (const [version, label] of item.acked) {
      const v = await api.get(`/content-items/${item.id}/versions/${version}`);
      expect(v.status).toBe(200);
      expect(v.body.label, `${item.id} version ${version}`).toBe(label);
      expect(v.body.body.title).toBe(label);
      totals.verified++;
    }
  }
  // Creates in flight: at most one item with the label, whole (version 1, its own title).
  if (pendingCreates.size) {
    const db = openDb(dataDir, true);
    try {
      const find = db.prepare('SELECT id, version, data FROM content_items WHERE label = ?');
      for (const label of pendingCreates.keys()) {
        totals.inFlightAtKill++;
        const rows = find.all(label) as { id: string; version: number; data: string }[];
        expect(rows.length, `in-flight create ${label}`).toBeLessThanOrEqual(1);
        if (rows.length === 1) {
          totals.inFlightPresent++;
          expect(rows[0]!.version).toBe(1);
          expect(JSON.parse(rows[0]!.data).body.title).toBe(label);
          const id = rows[0]!.id;
          items.set(id, { id, version: 1, label, acked: new Map([[1, label]]) });
        } else totals.inFlightAbsent++;
      }
    } finally {
      db.close();
    }
    pendingCreates.clear();
  }
}

describe('kill -9 of cms sandbox serve in the middle of a stream of writes', () => {
  it(`keeps every acknowledged write across ${ROUNDS} kills at different moments`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      server = await serve(['--data-dir', dataDir], {});
      const api = await new Api(server.url).login();
      if (round === 0) setup = await contentSetup(api);
      else await verify(api);
      expect(unexpected).toEqual([]);

      const stop = { dead: false };
      let acksThisRound = 0;
      const victim = server;
      let killed: Promise<void> | null = null;
      const onAck = () => {
        if (++acksThisRound === KILL_AFTER[round] && !killed) {
          // A few milliseconds later, so the kill does not line up with an answer.
          killed = new Promise<void>((r) => setTimeout(r, round % 3)).then(() => {
            stop.dead = true;
            return victim.kill9();
          });
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(api, round, w, stop, onAck)));
      expect(killed, 'the server was killed').not.toBeNull();
      await killed;
      totals.kills++;
      server = null;
      expect(unexpected).toEqual([]);

      // Right after the crash, before any server recovers it: the database is sound.
      const report = checkDatabase(dataDir);
      expect(report.integrity, `integrity after kill ${round + 1}`).toEqual(['ok']);
      expect(report.foreignKeyViolations).toBe(0);
      expect(report.problems).toEqual([]);
    }
    // Restarted one last time: everything acknowledged is there, then a clean stop and a last check.
    server = await serve(['--data-dir', dataDir], {});
    await verify(await new Api(server.url).login());
    expect(await server.stop()).toBe(0);
    server = null;
    const report = checkDatabase(dataDir);
    expect(report.integrity).toEqual(['ok']);
    expect(report.problems).toEqual([]);
    expect(totals.kills).toBe(ROUNDS);
    console.log(
      `[reliability] crash: ${totals.kills} kill -9 of cms sandbox serve mid-stream (after ${KILL_AFTER.join('/')} acks), ${WRITERS} writers; ` +
        `${totals.acked} writes acknowledged (${totals.ackedCreates} creates, ${totals.ackedUpdates} updates), all found after restart (${totals.verified} version checks); ` +
        `${totals.inFlightAtKill} in flight at a kill: ${totals.inFlightPresent} wholly present, ${totals.inFlightAbsent} wholly absent; ${report.items} items, ${report.versions} version rows, integrity ok after every kill`,
    );
  }, 300_000);
});
