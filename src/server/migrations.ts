import type { Migration } from './core/db.js';
import { coreSeed } from './core/seed.js';
import { reindexAllItems } from './items/search-text.js';
import { indexPublishedKeys } from './items/store.js';

// Applied in this order. Resource families append their own migration; never edit an applied one.
// Every resource row keeps its indexed columns beside the full resource as JSON in `data`.
export const migrations: Migration[] = [
  {
    id: '0001-core',
    sql: `
      CREATE TABLE sandbox_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE clients (
        id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL,
        admin INTEGER NOT NULL DEFAULT 0,
        permissions TEXT NOT NULL DEFAULT '[]',
        label TEXT,
        created_date TEXT NOT NULL
      );
      CREATE TABLE acl (
        client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        resource_type TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        permission TEXT NOT NULL,
        PRIMARY KEY (client_id, resource_type, resource_id, permission)
      );
      CREATE INDEX acl_resource ON acl(resource_type, resource_id);
      CREATE TABLE hubs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE TABLE repositories (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        group_id TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (hub_id, name)
      );
      CREATE INDEX repositories_group ON repositories(group_id);
      CREATE TABLE tasks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        due_at INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER,
        last_error TEXT,
        payload TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX tasks_due ON tasks(state, due_at, id);
    `,
    seed: coreSeed,
  },
  {
    id: '0002-content',
    sql: `
      CREATE TABLE schemas (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        schema_id TEXT NOT NULL,
        status TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (hub_id, schema_id)
      );
      CREATE TABLE schema_versions (
        schema_pk TEXT NOT NULL REFERENCES schemas(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (schema_pk, version)
      );
      CREATE TABLE content_types (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        uri TEXT NOT NULL,
        status TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (hub_id, uri)
      );
      CREATE TABLE folders (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        repo_id TEXT NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
        parent_id TEXT REFERENCES folders(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX folders_repo ON folders(repo_id, parent_id);
      -- seq is the stable rowid the full-text index is keyed by (an implicit rowid may change on VACUUM).
      CREATE TABLE content_items (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        repo_id TEXT NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
        folder_id TEXT,
        status TEXT NOT NULL,
        version INTEGER NOT NULL,
        label TEXT NOT NULL,
        locale TEXT,
        schema TEXT NOT NULL,
        delivery_key TEXT,
        created_date TEXT NOT NULL,
        last_modified_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX content_items_repo ON content_items(repo_id, status, created_date);
      CREATE INDEX content_items_hub ON content_items(hub_id, created_date);
      CREATE INDEX content_items_folder ON content_items(folder_id);
      CREATE UNIQUE INDEX content_items_delivery_key ON content_items(hub_id, delivery_key) WHERE delivery_key IS NOT NULL;
      CREATE TABLE content_item_versions (
        item_id TEXT NOT NULL REFERENCES content_items(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        action TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (item_id, version)
      );
      -- Links between items (from the bodies' content links), for children and dependency walks.
      CREATE TABLE content_links (
        from_id TEXT NOT NULL REFERENCES content_items(id) ON DELETE CASCADE,
        to_id TEXT NOT NULL,
        PRIMARY KEY (from_id, to_id)
      );
      CREATE INDEX content_links_to ON content_links(to_id);
      -- Full-text index of the latest version of each item (rowid = content_items.seq): label,
      -- every text of the body, and field-qualified tokens (title__apple) for field:word searches.
      CREATE VIRTUAL TABLE content_search USING fts5(
        label, body, fields,
        tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
      );
      CREATE TABLE workflow_states (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE TABLE localization_jobs (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        root_item_id TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX localization_jobs_root ON localization_jobs(root_item_id);
    `,
  },
  {
    id: '0003-scheduling',
    sql: `
      CREATE TABLE events (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX events_hub ON events(hub_id, start);
      CREATE TABLE editions (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        end TEXT NOT NULL,
        publishing_status TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX editions_event ON editions(event_id, start);
      CREATE INDEX editions_hub ON editions(hub_id, start);
      CREATE TABLE edition_slots (
        id TEXT PRIMARY KEY,
        edition_id TEXT NOT NULL REFERENCES editions(id) ON DELETE CASCADE,
        slot_id TEXT NOT NULL REFERENCES content_items(id) ON DELETE CASCADE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (edition_id, slot_id)
      );
      CREATE INDEX edition_slots_slot ON edition_slots(slot_id);
      CREATE TABLE edition_contents (
        id TEXT PRIMARY KEY,
        edition_id TEXT NOT NULL REFERENCES editions(id) ON DELETE CASCADE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX edition_contents_edition ON edition_contents(edition_id);
      CREATE TABLE snapshots (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        root_item_id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX snapshots_hub ON snapshots(hub_id, created_date);
      -- The frozen graph of a snapshot: every item (root and descendants) at its version.
      CREATE TABLE snapshot_items (
        snapshot_id TEXT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        item_id TEXT NOT NULL REFERENCES content_items(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        PRIMARY KEY (snapshot_id, item_id)
      );
      CREATE INDEX snapshot_items_item ON snapshot_items(item_id);
      CREATE TABLE publishing_jobs (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        snapshot_id TEXT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        scheduled_date TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX publishing_jobs_snapshot ON publishing_jobs(snapshot_id, created_date);
      CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX webhooks_hub ON webhooks(hub_id);
      -- Every delivery attempt of a webhook; seq orders them for cursor paging.
      CREATE TABLE webhook_requests (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX webhook_requests_webhook ON webhook_requests(webhook_id, seq);
    `,
  },
  {
    id: '0007-idempotency',
    sql: `
      -- Replies to POST requests that carried an Idempotency-Key: a repeat gets the same reply.
      CREATE TABLE idempotency_keys (
        client_id TEXT NOT NULL,
        key TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        status INTEGER NOT NULL,
        headers TEXT NOT NULL,
        body TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (client_id, key)
      );
      CREATE INDEX idempotency_keys_age ON idempotency_keys(created_at);
    `,
  },
  {
    id: '0005-search-indexes',
    sql: `
      -- Search indexes (primary and replicas) with their settings and API key in data.
      CREATE TABLE search_indexes (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        parent_id TEXT REFERENCES search_indexes(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (hub_id, name)
      );
      CREATE INDEX search_indexes_parent ON search_indexes(parent_id);
      CREATE TABLE search_index_types (
        id TEXT PRIMARY KEY,
        index_id TEXT NOT NULL REFERENCES search_indexes(id) ON DELETE CASCADE,
        content_type_uri TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (index_id, content_type_uri)
      );
      -- The records of an index; rowid keeps the order they were first added in.
      CREATE TABLE search_index_objects (
        index_id TEXT NOT NULL REFERENCES search_indexes(id) ON DELETE CASCADE,
        object_id TEXT NOT NULL,
        size INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (index_id, object_id)
      );
      -- Every search query answered (at: sandbox clock, ms); query_id only with clickAnalytics.
      CREATE TABLE search_queries (
        seq INTEGER PRIMARY KEY,
        index_id TEXT NOT NULL REFERENCES search_indexes(id) ON DELETE CASCADE,
        query_id TEXT UNIQUE,
        at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX search_queries_index ON search_queries(index_id, at);
      -- Click and conversion events, each tied to the query that produced the clicked hits.
      CREATE TABLE search_events (
        seq INTEGER PRIMARY KEY,
        index_id TEXT NOT NULL REFERENCES search_indexes(id) ON DELETE CASCADE,
        query_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX search_events_query ON search_events(query_id);
    `,
  },
  {
    id: '0004-bulk-jobs-extensions',
    sql: `
      -- Hub-level bulk jobs: the job with its per-item results in data (the work waits in a task).
      CREATE TABLE bulk_jobs (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX bulk_jobs_hub ON bulk_jobs(hub_id, created_date);
      CREATE TABLE extensions (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (hub_id, name)
      );
    `,
  },
  {
    id: '0006-integrations',
    sql: `
      -- Commerce and marketing integrations of a hub; their settings (credentials too) in data.
      CREATE TABLE integrations (
        id TEXT PRIMARY KEY,
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        label TEXT NOT NULL,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX integrations_hub ON integrations(hub_id, type, created_date);
      -- The stand-in commerce platform: one campaign per scheduled edition, its slot
      -- configurations in data; end is NULL for an evergreen campaign.
      CREATE TABLE commerce_campaigns (
        id TEXT PRIMARY KEY,
        integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
        edition_id TEXT NOT NULL,
        start TEXT NOT NULL,
        end TEXT,
        created_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (integration_id, edition_id)
      );
      CREATE INDEX commerce_campaigns_start ON commerce_campaigns(integration_id, start);
      -- Content assets the commerce platform holds: the last published version of each item.
      CREATE TABLE commerce_assets (
        id TEXT PRIMARY KEY,
        integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        updated_date TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (integration_id, item_id)
      );
      -- The stand-in marketing platform: every delivery its integration's webhook made.
      CREATE TABLE marketing_deliveries (
        seq INTEGER PRIMARY KEY,
        integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
        received_date TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX marketing_deliveries_integration ON marketing_deliveries(integration_id, seq);
      -- Virtual staging: wrapper templates a hub registers by name.
      CREATE TABLE staging_templates (
        hub_id TEXT NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        updated_date TEXT NOT NULL,
        html TEXT NOT NULL,
        PRIMARY KEY (hub_id, name)
      );
    `,
  },
  {
    id: '0008-server-idempotency-body-client-generation',
    sql: `
      -- A key reused with another body is refused (422), not replayed: the body's sha256 is kept.
      ALTER TABLE idempotency_keys ADD COLUMN body_hash TEXT;
      -- Each creation of a client id gets a new generation, carried in its tokens: a token of a
      -- deleted client stays dead when the id is created again. Rows from before: generation ''.
      ALTER TABLE clients ADD COLUMN generation TEXT NOT NULL DEFAULT '';
    `,
  },
  {
    id: '0009-fidelity-search-words',
    sql: `
      -- Quoted text is an exact search and a hyphenated word is one word: each text is indexed
      -- split at every hyphen (label, body, fields) and with its inner hyphens kept
      -- (label_words, body_words, fields_words). See store/search-text.ts. The seed reindexes.
      DROP TABLE content_search;
      CREATE VIRTUAL TABLE content_search USING fts5(
        label, body, fields, label_words, body_words, fields_words,
        tokenize = "unicode61 remove_diacritics 2 tokenchars '-_'"
      );
    `,
    seed: reindexAllItems,
  },
  {
    id: '0010-contentless-search-index',
    sql: `
      -- The index keeps only what MATCH and bm25 read: nothing reads the indexed texts back, and
      -- storing them (about 6 KB an item, every text twice) was a large part of each write's
      -- commit. contentless_delete lets a row be deleted by rowid alone. The seed reindexes.
      DROP TABLE content_search;
      CREATE VIRTUAL TABLE content_search USING fts5(
        label, body, fields, label_words, body_words, fields_words,
        content = '', contentless_delete = 1,
        tokenize = "unicode61 remove_diacritics 2 tokenchars '-_'"
      );
    `,
    seed: reindexAllItems,
  },
  {
    id: '0011-delivery-fidelity',
    sql: `
      -- Content Delivery 2 finds an item by the delivery key of its PUBLISHED version; staging by
      -- the latest key (delivery_key). Kept by items/store.ts; not unique: after a key moves in a
      -- draft, another item may take and publish it (the later publication wins). The seed fills it.
      ALTER TABLE content_items ADD COLUMN published_delivery_key TEXT;
      CREATE INDEX content_items_published_key ON content_items(hub_id, published_delivery_key) WHERE published_delivery_key IS NOT NULL;
    `,
    seed: indexPublishedKeys,
  },
  {
    id: '0013-hierarchies',
    sql: `
      -- Hierarchies (management GET /hierarchy-node/{id}/children, parents): children are found by
      -- the parent their latest body names, through this index (in creation order). Items written before it get the
      -- \`hierarchy\` field items/store.ts now keeps from \`_meta.hierarchy\`.
      CREATE INDEX content_items_hierarchy_parent ON content_items(hub_id, json_extract(data, '$.body._meta.hierarchy.parentId'), created_date)
        WHERE json_extract(data, '$.body._meta.hierarchy.parentId') IS NOT NULL;
      UPDATE content_items SET data = json_set(data, '$.hierarchy', json_object(
          'root', CASE WHEN json_type(data, '$.body._meta.hierarchy.root') = 'true' THEN json('true') ELSE json('false') END))
        WHERE json_type(data, '$.body._meta.hierarchy') = 'object';
      UPDATE content_items SET data = json_set(data, '$.hierarchy.parentId', json_extract(data, '$.body._meta.hierarchy.parentId'))
        WHERE json_type(data, '$.body._meta.hierarchy.parentId') = 'text';
    `,
  },
];
