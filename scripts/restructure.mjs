// Moves the sandbox service (src/server) and its contract tests to the layout by resource family
// (issue 15) and rewrites every relative import to the new locations. Repeatable: entries whose
// old file is gone are skipped, and imports that still name an old location (files merged in
// from a branch that predates the move) are rewritten, so it can run again after a merge.
//
//   node scripts/restructure.mjs            git mv by the table below, then rewrite imports
//   node scripts/restructure.mjs --dry-run  print what would move and which files would change
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = process.argv.includes('--dry-run');

// Old path -> new path, relative to src/server (families) and test/contract (tests).
const SERVER = {
  // core: what every family stands on; imports no family.
  'body-budget.ts': 'core/body-budget.ts',
  'body.ts': 'core/body.ts',
  'clock.ts': 'core/clock.ts',
  'content-links.ts': 'core/content-links.ts',
  'context.ts': 'core/context.ts',
  'dropped.ts': 'core/dropped.ts',
  'errors.ts': 'core/errors.ts',
  'exchange.ts': 'core/exchange.ts',
  'faults.ts': 'core/faults.ts',
  'hal.ts': 'core/hal.ts',
  'host.ts': 'core/host.ts',
  'ids.ts': 'core/ids.ts',
  'idempotency.ts': 'core/idempotency.ts',
  'router.ts': 'core/router.ts',
  'validate.ts': 'core/validate.ts',
  'load.ts': 'core/load.ts',
  'auth/permissions.ts': 'core/auth/permissions.ts',
  'auth/principal.ts': 'core/auth/principal.ts',
  'auth/share.ts': 'core/auth/share.ts',
  'auth/tokens.ts': 'core/auth/tokens.ts',
  'schemas/auth.ts': 'core/auth/schemas.ts',
  'store/db.ts': 'core/db.ts',
  'store/collection.ts': 'core/collection.ts',
  'store/statements.ts': 'core/statements.ts',
  'store/state.ts': 'core/state.ts',
  'store/seed.ts': 'core/seed.ts',
  'jobs/clock-store.ts': 'core/clock-store.ts',
  'jobs/scheduler.ts': 'core/scheduler.ts',
  'jobs/kinds.ts': 'core/tasks.ts',
  'routes/table.ts': 'core/route-table.ts',
  'schemas/index.ts': 'core/body-schemas.ts',
  // the assembly (next to service.ts): knows every family.
  'routes/families.ts': 'families.ts',
  'store/migrations.ts': 'migrations.ts',
  // families
  'routes/admin.ts': 'admin/routes.ts',
  'routes/oauth.ts': 'admin/routes-oauth.ts',
  'resources/member.ts': 'admin/render.ts',
  'bulk/actions.ts': 'bulk-jobs/actions.ts',
  'bulk/results.ts': 'bulk-jobs/results.ts',
  'bulk/runner.ts': 'bulk-jobs/task.ts',
  'routes/bulk-jobs.ts': 'bulk-jobs/routes.ts',
  'resources/bulk-job.ts': 'bulk-jobs/render.ts',
  'schemas/bulk-jobs.ts': 'bulk-jobs/schemas.ts',
  'store/bulk-jobs.ts': 'bulk-jobs/store.ts',
  'routes/content-types.ts': 'content-types/routes.ts',
  'resources/content-type.ts': 'content-types/render.ts',
  'schemas/content-types.ts': 'content-types/schemas.ts',
  'store/content-types.ts': 'content-types/store.ts',
  'slot-rules.ts': 'content-types/slot-rules.ts',
  'content-graph.ts': 'delivery/graph.ts',
  'staging/delivery.ts': 'delivery/resolve.ts',
  'staging/live.ts': 'delivery/live.ts',
  'staging/iri.ts': 'delivery/iri.ts',
  'routes/editions.ts': 'editions/routes.ts',
  'routes/edition-contents.ts': 'editions/routes-contents.ts',
  'routes/edition-slots.ts': 'editions/routes-slots.ts',
  'routes/edition-scheduling.ts': 'editions/routes-scheduling.ts',
  'resources/edition.ts': 'editions/render.ts',
  'resources/edition-content.ts': 'editions/render-content.ts',
  'resources/edition-slot.ts': 'editions/render-slot.ts',
  'schemas/editions.ts': 'editions/schemas.ts',
  'store/editions.ts': 'editions/store.ts',
  'editions/publish-task.ts': 'editions/task-publish.ts',
  'editions/schedule-task.ts': 'editions/task-schedule.ts',
  'routes/events.ts': 'events/routes.ts',
  'resources/event.ts': 'events/render.ts',
  'schemas/events.ts': 'events/schemas.ts',
  'store/events.ts': 'events/store.ts',
  'routes/extensions.ts': 'extensions/routes.ts',
  'resources/extension.ts': 'extensions/render.ts',
  'schemas/extensions.ts': 'extensions/schemas.ts',
  'store/extensions.ts': 'extensions/store.ts',
  'routes/folders.ts': 'folders/routes.ts',
  'resources/folder.ts': 'folders/render.ts',
  'schemas/folders.ts': 'folders/schemas.ts',
  'store/folders.ts': 'folders/store.ts',
  'routes/hubs.ts': 'hubs/routes.ts',
  'routes/root.ts': 'hubs/routes-root.ts',
  'resources/hub.ts': 'hubs/render.ts',
  'schemas/hubs.ts': 'hubs/schemas.ts',
  'store/hubs.ts': 'hubs/store.ts',
  'routes/integrations.ts': 'integrations/routes.ts',
  'routes/commerce.ts': 'integrations/routes-commerce.ts',
  'resources/integration.ts': 'integrations/render.ts',
  'schemas/integrations.ts': 'integrations/schemas.ts',
  'commerce/assets.ts': 'integrations/commerce-assets.ts',
  'commerce/campaigns.ts': 'integrations/commerce-campaigns.ts',
  'commerce/ranking.ts': 'integrations/commerce-ranking.ts',
  'commerce/receiver.ts': 'integrations/commerce-receiver.ts',
  'commerce/store.ts': 'integrations/commerce-store.ts',
  'routes/items.ts': 'items/routes.ts',
  'routes/delivery-keys.ts': 'items/routes-delivery-keys.ts',
  'routes/localization.ts': 'items/routes-localization.ts',
  'resources/item.ts': 'items/render.ts',
  'resources/localization-job.ts': 'items/render-localization-job.ts',
  'schemas/items.ts': 'items/schemas.ts',
  'store/items.ts': 'items/store.ts',
  'store/search-text.ts': 'items/search-text.ts',
  'store/item-row-cache.ts': 'items/row-cache.ts',
  'store/localization-jobs.ts': 'items/localization-jobs.ts',
  'item-rules.ts': 'items/rules.ts',
  'jobs/localize.ts': 'items/task-localize.ts',
  'routes/publishing.ts': 'publishing/routes.ts',
  'jobs/publishing-job.ts': 'publishing/task.ts',
  'routes/repositories.ts': 'repositories/routes.ts',
  'resources/repository.ts': 'repositories/render.ts',
  'schemas/repositories.ts': 'repositories/schemas.ts',
  'store/repositories.ts': 'repositories/store.ts',
  'routes/sandbox.ts': 'sandbox/routes.ts',
  'routes/sandbox-jobs.ts': 'sandbox/routes-jobs.ts',
  'routes/console.ts': 'sandbox/routes-console.ts',
  'schemas/sandbox.ts': 'sandbox/schemas.ts',
  'routes/schemas.ts': 'schemas/routes.ts',
  'routes/schema-docs.ts': 'schemas/routes-docs.ts',
  'resources/schema.ts': 'schemas/render.ts',
  'store/schemas.ts': 'schemas/store.ts',
  'schema-rules.ts': 'schemas/rules.ts',
  'schema-docs.ts': 'schemas/docs.ts',
  'json-schema.ts': 'schemas/json-schema.ts',
  'routes/search-indexes.ts': 'search-indexes/routes.ts',
  'routes/search-analytics.ts': 'search-indexes/routes-analytics.ts',
  'routes/search-query.ts': 'search-indexes/routes-query.ts',
  'routes/search.ts': 'search-indexes/routes-search.ts',
  'resources/search-index.ts': 'search-indexes/render.ts',
  'schemas/search-indexes.ts': 'search-indexes/schemas.ts',
  'schemas/search.ts': 'search-indexes/schemas-search.ts',
  'search/dates.ts': 'search-indexes/search-dates.ts',
  'search/facets.ts': 'search-indexes/search-facets.ts',
  'search/query.ts': 'search-indexes/search-query.ts',
  'search/select.ts': 'search-indexes/search-select.ts',
  'search/sql.ts': 'search-indexes/search-sql.ts',
  'characters.ts': 'search-indexes/characters.ts',
  'routes/snapshots.ts': 'snapshots/routes.ts',
  'resources/snapshot.ts': 'snapshots/render.ts',
  'schemas/snapshots.ts': 'snapshots/schemas.ts',
  'store/snapshots.ts': 'snapshots/store.ts',
  'routes/virtual-staging.ts': 'staging/routes.ts',
  'routes/webhooks.ts': 'webhooks/routes.ts',
  'resources/webhook.ts': 'webhooks/render.ts',
  'schemas/webhooks.ts': 'webhooks/schemas.ts',
  'store/webhooks.ts': 'webhooks/store.ts',
  'routes/workflow-states.ts': 'workflow-states/routes.ts',
  'resources/workflow-state.ts': 'workflow-states/render.ts',
  'schemas/workflow-states.ts': 'workflow-states/schemas.ts',
  'store/workflow-states.ts': 'workflow-states/store.ts',
};

// Contract tests by family (test/contract/<family>/...); core's own behaviour under core/.
const TESTS = {
  admin: ['admin', 'auth'],
  'bulk-jobs': ['bulk-jobs'],
  'content-types': ['content-types'],
  core: ['faults', 'host', 'idempotency', 'permissions', 'wire'],
  editions: ['edition-content', 'edition-scheduling', 'edition-slots', 'editions', 'scheduling-e2e', 'slots'],
  events: ['events'],
  extensions: ['extensions'],
  folders: ['folders'],
  hubs: ['hubs'],
  integrations: ['integrations', 'commerce'],
  items: ['items', 'items-bulk', 'items-concurrency', 'delivery-keys', 'localization'],
  publishing: ['snapshots-publishing'],
  repositories: ['repositories'],
  sandbox: ['sandbox-admin', 'console-routes'],
  schemas: ['schemas'],
  'search-indexes': ['search', 'facets', 'search-analytics', 'search-index-lifecycle', 'search-indexes'],
  staging: ['virtual-staging'],
  webhooks: ['webhooks', 'webhook-safety'],
  'workflow-states': ['workflow-states'],
};

const moves = new Map();
for (const [from, to] of Object.entries(SERVER)) moves.set(join(root, 'src/server', from), join(root, 'src/server', to));
for (const [family, names] of Object.entries(TESTS)) {
  for (const n of names) moves.set(join(root, 'test/contract', `${n}.test.ts`), join(root, 'test/contract', family, `${n}.test.ts`));
}

// 1. Move (git mv keeps history); entries already moved are skipped.
const movedNow = new Map(); // new path -> old path, for the files moved in this run
for (const [from, to] of moves) {
  if (!existsSync(from)) continue;
  if (existsSync(to)) throw new Error(`${relative(root, to)} exists already; ${relative(root, from)} cannot move there`);
  movedNow.set(to, from);
  if (dryRun) { console.log(`mv ${relative(root, from)} -> ${relative(root, to)}`); continue; }
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to], { cwd: root });
}

// 2. Rewrite relative specifiers: resolve against the file's location before the move, map the
// target through the table when the old target no longer exists, re-relativise from the new location.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.(?:mock|doMock|importActual)\s*\(\s*)(['"])(\.\.?\/[^'"\n]+)\2/g;
const sources = [];
const walk = (dir) => {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.(ts|tsx|mts|mjs|js)$/.test(name)) sources.push(full);
  }
};
for (const dir of ['src', 'test', 'bench', 'scripts']) walk(join(root, dir));

const tsOf = (p) => p.replace(/\.js$/, '.ts');
const onDisk = (p) => existsSync(p) || existsSync(tsOf(p));
let changed = 0;
for (const file of sources.map((f) => (dryRun ? (moves.get(f) ?? f) : f))) {
  const oldLocation = dryRun ? ([...moves].find(([, to]) => to === file)?.[0] ?? file) : (movedNow.get(file) ?? file);
  const readFrom = dryRun ? oldLocation : file;
  if (!existsSync(readFrom)) continue;
  const text = readFileSync(readFrom, 'utf8');
  const out = text.replace(SPECIFIER, (whole, head, quote, spec) => {
    let target = resolve(dirname(oldLocation), spec);
    const ts = tsOf(target);
    const mapped = moves.get(ts) ?? moves.get(target);
    const gone = dryRun ? moves.has(ts) || moves.has(target) : !onDisk(target);
    if (mapped && gone) target = spec.endsWith('.js') ? mapped.replace(/\.ts$/, '.js') : mapped;
    else if (!onDisk(target) && !dryRun) return whole; // not a file we know: leave it alone
    let rel = relative(dirname(file), target).split(sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    if (spec.endsWith('/') && !rel.endsWith('/')) rel += '/';
    return `${head}${quote}${rel}${quote}`;
  });
  if (out !== text) {
    changed++;
    if (dryRun) console.log(`rewrite ${relative(root, file)}`);
    else writeFileSync(file, out);
  }
}
// Folders the move emptied (git does not track folders).
const prune = (dir) => {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isDirectory()) prune(join(dir, name));
  if (!readdirSync(dir).length && !dryRun) rmdirSync(dir);
};
prune(join(root, 'src/server'));
prune(join(root, 'test/contract'));
console.log(`${movedNow.size} files moved, ${changed} files with rewritten imports${dryRun ? ' (dry run)' : ''}`);
