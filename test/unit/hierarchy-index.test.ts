import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/core/db.js';
import { migrations } from '../../src/server/migrations.js';
import { recordPlans } from '../helpers/sqlite.js';
import { hasHierarchyChildren, hierarchyChildren, items } from '../../src/server/items/store.js';

// Hierarchy children (GET /hierarchy-node/{id}/children, each node's hasChildren) are found by the
// parent an item's body names: an index search of (hub, parent), never a scan of the hub's items.
// Migration 0013-hierarchies also gives items written before it their `hierarchy` field.

describe('hierarchy children lookup', () => {
  it('searches the (hub_id, parent) index', () => {
    const db = openDatabase({ migrations });
    const plans = recordPlans(
      db,
      (sql) => /hierarchy\.parentId/.test(sql) && /^SELECT/.test(sql),
      (sql) => (sql.includes('LIMIT ?') ? ['hub', 'parent', 10] : ['hub', 'parent']),
    );
    expect(hierarchyChildren(db, 'hub', 'parent', 10)).toEqual([]);
    expect(hasHierarchyChildren(db, 'hub', 'parent')).toBe(false);
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toMatch(/SEARCH content_items USING INDEX content_items_hierarchy_parent \(hub_id=\? AND <expr>=\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
      expect(plan).not.toMatch(/SCAN content_items/);
    }
    db.close();
  });

  it('migration 0013 gives items written before it their hierarchy field', () => {
    const before = openDatabase({ migrations: migrations.filter((m) => m.id !== '0013-hierarchies') });
    before.prepare("INSERT INTO hubs (id, name, created_date, data) VALUES ('hub', 'h', '2026-01-01', '{}')").run();
    before.prepare("INSERT INTO repositories (id, hub_id, name, group_id, created_date, data) VALUES ('repo', 'hub', 'r', 'g', '2026-01-01', '{}')").run();
    const row = (id: string, meta: Record<string, unknown>) =>
      before
        .prepare("INSERT INTO content_items (id, hub_id, repo_id, status, version, label, schema, created_date, last_modified_date, data) VALUES (?, 'hub', 'repo', 'ACTIVE', 1, ?, 's', '2026-01-01', '2026-01-01', ?)")
        .run(id, id, JSON.stringify({ id, contentRepositoryId: 'repo', label: id, body: { _meta: { schema: 's', ...meta } }, version: 1, status: 'ACTIVE' }));
    row('top', { hierarchy: { root: true } });
    row('child', { hierarchy: { root: false, parentId: 'top' } });
    row('plain', {});
    const after = openDatabase({ migrations, buffer: before.serialize() });
    before.close();
    const all = items(after);
    expect(all.get('top')!.hierarchy).toEqual({ root: true });
    expect(all.get('child')!.hierarchy).toEqual({ root: false, parentId: 'top' });
    expect(all.get('plain')!.hierarchy).toBeUndefined();
    expect(hierarchyChildren(after, 'hub', 'top', 10).map((i) => i.id)).toEqual(['child']);
    after.close();
  });
});
