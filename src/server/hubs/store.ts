import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export interface Device {
  name: string;
  width: number;
  height: number;
  orientate: boolean;
}

export interface HubSettings {
  virtualStagingEnvironment: { hostname: string };
  previewVirtualStagingEnvironment: { hostname: string };
  applications: unknown[];
  devices: Device[];
  localization: { locales: string[] };
  publishing?: { platforms?: { vendor_dam?: { API_KEY?: string; API_SECRET?: string; endpoint?: string } } };
  assetManagement?: Record<string, unknown>;
  contentItems?: { validation?: { ignoreSchemaValidation?: boolean } };
  [other: string]: unknown;
}

/** Modules administration can enable on a hub, by the path segment that enables them. */
export const HUB_MODULES = { 'search-index': 'SEARCH_INDEX', 'content-delivery-2': 'CONTENT_DELIVERY_2' } as const;

export interface Hub {
  id: string;
  name: string;
  label: string;
  description: string;
  status: 'ACTIVE';
  plan: string | null;
  settings: HubSettings;
  /** Modules enabled by administration (search index, Content Delivery 2). */
  modules: string[];
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const DEFAULT_DEVICES: Device[] = [
  { name: 'Desktop', width: 1024, height: 768, orientate: false },
  { name: 'Tablet', width: 640, height: 768, orientate: false },
  { name: 'Mobile', width: 320, height: 512, orientate: false },
];

export function defaultSettings(): HubSettings {
  return {
    virtualStagingEnvironment: { hostname: '' },
    previewVirtualStagingEnvironment: { hostname: '' },
    applications: [],
    devices: DEFAULT_DEVICES.map((d) => ({ ...d })),
    localization: { locales: [] },
  };
}

export const hubs = (db: Db) => new Collection<Hub>(db, 'hubs', { name: (h) => h.name, created_date: (h) => h.createdDate }, { createdDate: 'created_date', name: 'name' });
