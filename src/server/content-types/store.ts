import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export interface ContentTypeSettings {
  label: string;
  icons?: { size?: number; url: string }[];
  visualizations?: { label: string; templatedUri: string; default?: boolean }[];
  cards?: { label?: string; templatedUri: string; default?: boolean }[];
  [other: string]: unknown;
}

export interface ContentType {
  id: string;
  hubId: string;
  contentTypeUri: string;
  status: 'ACTIVE' | 'ARCHIVED';
  settings: ContentTypeSettings;
  /** The schema document as of the last sync: what item bodies are validated against. */
  cachedSchema: Record<string, unknown>;
  cachedSchemaVersion: number;
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const contentTypes = (db: Db) =>
  new Collection<ContentType>(
    db,
    'content_types',
    { hub_id: (t) => t.hubId, uri: (t) => t.contentTypeUri, status: (t) => t.status, created_date: (t) => t.createdDate },
    { createdDate: 'created_date', contentTypeUri: 'uri', status: 'status' },
  );
