import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/core/db.js';
import { migrations } from '../../src/server/migrations.js';
import { recordPlans } from '../helpers/sqlite.js';
import { itemByPublishedKey } from '../../src/server/items/store.js';

// Content Delivery 2 finds an item by the key of its published version on every GET by key: the
// lookup must be an index search of (hub, published key), never a scan of the hub's items.

describe('published delivery key lookup', () => {
  it('searches the (hub_id, published_delivery_key) index', () => {
    const db = openDatabase({ migrations });
    const plans = recordPlans(db, (sql) => /published_delivery_key/.test(sql), () => ['hub', 'key']);
    expect(itemByPublishedKey(db, 'hub', 'key')).toBeUndefined();
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatch(/SEARCH content_items USING INDEX content_items_published_key \(hub_id=\? AND published_delivery_key=\?\)/);
    expect(plans[0]).not.toMatch(/SCAN content_items/);
    db.close();
  });
});
