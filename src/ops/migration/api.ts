// The public face of `cms-cli/migration`: what a migration file imports. It imports nothing, so
// the build emits its declarations alone (as src/fixture/api.ts for `cms-cli/sandbox`). A
// migration file is bundled by `cms migration run` with esbuild; there `cms-cli/migration` is
// this file's `defineMigration`, so a migration needs no install of cms-cli beside it.

/** The body of a content item: its fields and `_meta` (schema, name, delivery key). */
export interface ItemBody {
  _meta: { schema: string; name?: string; deliveryKey?: string | null; [key: string]: unknown };
  [field: string]: unknown;
}

/** A content item as a migration reads it. */
export interface MigrationItem {
  id: string;
  label: string;
  body: ItemBody;
  /** The content type URI (body._meta.schema). */
  schema: string;
  locale: string | null;
  folderId: string | null;
  deliveryKey: string | null;
  version: number;
  status: 'ACTIVE' | 'ARCHIVED';
  contentRepositoryId: string;
  /** The workflow state id, or null. */
  workflowState: string | null;
  /** NONE, EARLY, LATEST or UNPUBLISHED (absent offline, on an export). */
  publishingStatus?: string;
}

/** A link to another item, as a body holds it. */
export interface ContentLink {
  _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link' };
  contentType: string;
  id: string;
}

/**
 * What changes on one item; every field is optional, and a field left out stays as it is.
 * Returning nothing (undefined or null) leaves the item alone.
 */
export interface ItemChange {
  /** The whole new body (`_meta.schema` kept from the item unless `contentType` says otherwise). */
  body?: ItemBody | Record<string, unknown>;
  label?: string;
  /** A folder id of the item's repository, or null for the repository root. */
  folderId?: string | null;
  deliveryKey?: string | null;
  /** A workflow state id or label, or null to remove the state. */
  workflowState?: string | null;
  /** true archives the item (after any other change). */
  archive?: boolean;
  /** Moves the item to another content type (its URI, assigned to the item's repository). */
  contentType?: string;
}

/** A new item, created when the change of the item that derives it is applied. */
export interface DerivedItem {
  contentType: string;
  label: string;
  body: Record<string, unknown>;
  /** Repository id or name (default: the deriving item's). */
  repository?: string;
  /** Folder id (default: the deriving item's folder when the repository is the same, else the root). */
  folderId?: string | null;
  locale?: string | null;
}

export interface MigrationContext {
  /**
   * Creates a linked item with the change: returns the link to put in the body. The item is made
   * once per run (a resumed run does not make it again) and archived by `cms undo`.
   */
  derive(item: DerivedItem): ContentLink;
  /** Moves the item to another content type, with its new body (the change to return). */
  moveTo(contentType: string, body: Record<string, unknown>, change?: Omit<ItemChange, 'body' | 'contentType'>): ItemChange;
  /** Another item by id, as it is now (undefined when there is none). */
  get(id: string): Promise<MigrationItem | undefined>;
  /** A link to an item. */
  link(item: Pick<MigrationItem, 'id' | 'schema'>): ContentLink;
}

/** Which items a migration reads. Every field narrows the selection; none: every active item of the hub. */
export interface MigrationSelection {
  /** Content type URI(s) (body._meta.schema). */
  contentType?: string | string[];
  /** Repository name(s) or id(s). */
  repository?: string | string[];
  /** Folder id: the items in it and its subfolders. */
  folder?: string;
  /** Full-text search, as `cms item find` takes it. */
  query?: string;
  /** ACTIVE (default), ARCHIVED or ALL. */
  status?: 'ACTIVE' | 'ARCHIVED' | 'ALL';
  /** Keeps only the items for which it returns true. */
  where?: (item: MigrationItem) => boolean;
}

/** The content model the migration needs, applied (with `schema apply`'s plan) before any item. */
export interface MigrationModel {
  /** Directory of schema files (as `cms schema apply` reads), relative to the migration file. */
  schemas?: string;
  /** Directory of type files (as `cms type apply` reads), relative to the migration file. */
  types?: string;
}

export interface Migration {
  /** What the hub records the migration as (default: the file name). */
  name?: string;
  description?: string;
  select: MigrationSelection;
  model?: MigrationModel;
  /** Content type URIs archived at the end, once every selected item was migrated without failure. */
  retire?: string[];
  /** The change for one item, or nothing to leave it alone. Throwing fails that item only. */
  migrate(item: MigrationItem, ctx: MigrationContext): ItemChange | undefined | null | void | Promise<ItemChange | undefined | null | void>;
}

/** Declares a migration (the file's default export). Returns it as given: the types are the point. */
export function defineMigration(migration: Migration): Migration {
  return migration;
}
