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
  // schemas/index.ts is both an old location and, after --indexes, the schemas family's index.
  if (existsSync(to) && from.endsWith(`${sep}index.ts`)) continue;
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
    // A family's index.ts (written by --indexes) is never an old location, even where one was (schemas/index.ts).
    const familyIndex = /^src\/server\/[^/]+\/index\.ts$/.test(relative(root, ts).split(sep).join('/')) && existsSync(join(dirname(ts), 'store.ts'));
    if (mapped && gone && !familyIndex) target = spec.endsWith('.js') ? mapped.replace(/\.ts$/, '.js') : mapped;
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

// 3. With --indexes: a family uses another only through its index.ts. Imports of another family's
// internal file become imports of that family's index.js, and each index.ts is written anew with
// exactly the names other families (and the assembly) take from it. One exception: a schemas*.ts
// may build on another family's schemas*.ts (body schemas load with zod, only for a body; an
// index.ts that re-exported them would load zod on every read).
if (process.argv.includes('--indexes')) writeIndexes();

function writeIndexes() {
  const server = join(root, 'src/server');
  const files = sources.filter((f) => f.startsWith(server + sep) && f.endsWith('.ts'));
  const familyOf = (f) => {
    const parts = relative(server, f).split(sep);
    return parts.length > 1 && parts[0] !== 'core' ? parts[0] : null;
  };
  const isSchemas = (f) => /^schemas[^/]*\.ts$/.test(f.split(sep).pop());
  const STATEMENT = /\b(import|export)\s+(type\s+)?\{([^}]*)\}\s*from\s*(['"])(\.\.?\/[^'"\n]+)\4/g;
  const wanted = new Map(); // family -> Set of names
  const unhandled = [];
  for (const file of files) {
    const own = familyOf(file);
    const text = readFileSync(file, 'utf8');
    const out = text.replace(STATEMENT, (whole, kind, typeOnly, names, quote, spec) => {
      const target = tsOf(resolve(dirname(file), spec));
      const other = familyOf(target);
      if (!other || other === own) return whole;
      const isIndex = target === join(server, other, 'index.ts');
      if (!isIndex && own === null) return whole; // the assembly may load any file (lazily)
      if (!isIndex && isSchemas(file) && isSchemas(target)) return whole;
      const set = wanted.get(other) ?? new Set();
      wanted.set(other, set);
      for (const n of names.split(',').map((s) => s.trim()).filter(Boolean)) set.add(n.replace(/^type\s+/, '').split(/\s+as\s+/)[0]);
      if (isIndex) return whole;
      let rel = relative(dirname(file), join(server, other, 'index.js')).split(sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `${kind} ${typeOnly ?? ''}{${names}} from ${quote}${rel}${quote}`;
    });
    for (const m of out.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:\*\s+as\s+\w+|\w+)\s+from\s*['"](\.\.?\/[^'"\n]+)['"]/g)) {
      const target = tsOf(resolve(dirname(file), m[1]));
      const other = familyOf(target);
      if (own !== null && other && other !== own && !(isSchemas(file) && isSchemas(target))) unhandled.push(`${relative(root, file)}: ${m[0]}`);
    }
    if (out !== text && !dryRun) writeFileSync(file, out);
  }
  // Where each family's names are declared.
  const DECL = /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
  const LIST = /^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*['"][^'"]+['"])?/gm;
  for (const [family, names] of [...wanted].sort()) {
    const dir = join(server, family);
    const exported = new Map(); // name -> { file, type }
    for (const file of files.filter((f) => f.startsWith(dir + sep) && !f.endsWith(`${sep}index.ts`))) {
      const text = readFileSync(file, 'utf8');
      const add = (name, type) => {
        const prev = exported.get(name);
        // Handlers (routes*.ts) share names with rules (setWorkflow): the rule is what others use.
        const handlers = (f) => /^routes[^/]*\.ts$/.test(f.split(sep).pop());
        if (prev && prev.file !== file && !handlers(prev.file) && !handlers(file)) exported.set(name, { ambiguous: [prev.file, file] });
        else if (!prev || handlers(prev.file)) exported.set(name, { file, type });
      };
      for (const m of text.matchAll(DECL)) add(m[2], m[1] === 'interface' || m[1] === 'type');
      for (const m of text.matchAll(LIST)) {
        for (const part of m[2].split(',').map((s) => s.trim()).filter(Boolean)) {
          const type = Boolean(m[1]) || part.startsWith('type ');
          add(part.replace(/^type\s+/, '').split(/\s+as\s+/).pop(), type);
        }
      }
    }
    const byFile = new Map();
    for (const name of [...names].sort()) {
      const where = exported.get(name);
      if (!where) throw new Error(`${family}/index.ts: no file of the family exports ${name}`);
      if (where.ambiguous) throw new Error(`${family}/index.ts: ${name} is exported by both ${where.ambiguous.map((f) => relative(dir, f)).join(' and ')}`);
      const list = byFile.get(where.file) ?? [];
      byFile.set(where.file, list);
      list.push(where.type ? `type ${name}` : name);
    }
    const lines = [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([file, list]) => `export { ${list.join(', ')} } from './${relative(dir, file).split(sep).join('/').replace(/\.ts$/, '.js')}';`);
    const text = `// What other families use of ${family}: written by \`node scripts/restructure.mjs --indexes\`\n// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).\n${lines.join('\n')}\n`;
    if (dryRun) console.log(`index ${family}: ${names.size} names`);
    else writeFileSync(join(dir, 'index.ts'), text);
  }
  if (unhandled.length) console.log(`not rewritten (not a named import; change by hand):\n  ${unhandled.join('\n  ')}`);
  console.log(`${wanted.size} index.ts files`);
}
