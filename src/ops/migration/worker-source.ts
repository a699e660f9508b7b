// The worker thread a migration's code runs in (written beside the bundled migration, see
// load.ts): a transform that loops forever or runs too long is cut off by terminating the worker,
// which no timer inside the main thread could do to a synchronous loop. Messages:
//   main -> worker  {t: 'item', seq, item}         worker -> main  {t: 'result', seq, skip?, change?, derived?, error?}
//                   {t: 'got', req, item?}                         {t: 'get', req, id}
// On start the worker posts {t: 'ready', info} or {t: 'load-error', message}.

export const CONTENT_LINK = 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link';
/** Ids of derived items inside a change, replaced by the real ids when the items are made. */
export const DERIVED_PREFIX = '@derived/';

export const WORKER_SOURCE = `
import { parentPort } from 'node:worker_threads';
const CONTENT_LINK = ${JSON.stringify(CONTENT_LINK)};
const DERIVED = ${JSON.stringify(DERIVED_PREFIX)};
let migration;
const gets = new Map();
let nextReq = 0;
const describe = (err) => (err && typeof err === 'object' && 'message' in err ? String(err.message) : String(err)).slice(0, 2000);
try {
  const mod = await import('./migration.mjs');
  migration = mod.default && typeof mod.default === 'object' && 'default' in mod.default && typeof mod.default.migrate !== 'function' ? mod.default.default : mod.default;
  if (!migration || typeof migration !== 'object' || typeof migration.migrate !== 'function') {
    parentPort.postMessage({ t: 'load-error', message: 'has no migration: its default export must be defineMigration({ select, migrate })' });
  } else {
    const select = migration.select && typeof migration.select === 'object' ? migration.select : {};
    const { where, ...data } = select;
    if (where !== undefined && typeof where !== 'function') throw new Error('select.where must be a function');
    parentPort.postMessage({ t: 'ready', info: JSON.parse(JSON.stringify({
      name: typeof migration.name === 'string' ? migration.name : undefined,
      description: typeof migration.description === 'string' ? migration.description : undefined,
      select: data, hasWhere: typeof where === 'function', model: migration.model, retire: migration.retire,
    })) });
  }
} catch (err) {
  parentPort.postMessage({ t: 'load-error', message: 'could not be loaded: ' + describe(err) });
}
const get = (id) => new Promise((resolve, reject) => {
  const req = nextReq++;
  gets.set(req, { resolve, reject });
  parentPort.postMessage({ t: 'get', req, id: String(id) });
});
async function run(item) {
  if (typeof migration.select?.where === 'function' && !migration.select.where(item)) return { skip: true };
  const derived = [];
  const ctx = {
    derive(spec) {
      if (!spec || typeof spec !== 'object' || typeof spec.contentType !== 'string' || typeof spec.label !== 'string' || !spec.body || typeof spec.body !== 'object') throw new Error('derive() needs {contentType, label, body}');
      derived.push(JSON.parse(JSON.stringify(spec)));
      return { _meta: { schema: CONTENT_LINK }, contentType: spec.contentType, id: DERIVED + (derived.length - 1) };
    },
    moveTo(contentType, body, change) {
      return { ...(change || {}), contentType, body };
    },
    get,
    link(target) {
      return { _meta: { schema: CONTENT_LINK }, contentType: target.schema ?? target.body?._meta?.schema, id: target.id };
    },
  };
  const change = await migration.migrate(item, ctx);
  if (change === undefined || change === null) return derived.length ? { error: 'derive() was called but no change was returned' } : { none: true };
  if (typeof change !== 'object' || Array.isArray(change)) throw new Error('migrate() must return a change object or nothing, not ' + (Array.isArray(change) ? 'an array' : typeof change));
  return { change: JSON.parse(JSON.stringify(change)), derived };
}
parentPort.on('message', async (msg) => {
  if (msg.t === 'got') {
    const g = gets.get(msg.req);
    gets.delete(msg.req);
    if (g) msg.error ? g.reject(new Error(msg.error)) : g.resolve(msg.item ?? undefined);
    return;
  }
  if (msg.t !== 'item' || !migration) return;
  try {
    parentPort.postMessage({ t: 'result', seq: msg.seq, ...(await run(msg.item)) });
  } catch (err) {
    parentPort.postMessage({ t: 'result', seq: msg.seq, error: describe(err) });
  }
});
`;
