import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export type IntegrationType = 'commerce' | 'marketing';

export interface Integration {
  id: string;
  hubId: string;
  type: IntegrationType;
  label: string;
  /** The type's own fields as the client sent them; credentials are masked only on the way out. */
  settings: Record<string, unknown>;
  /** The one webhook the integration owns (labelled for it, delivered to its platform). */
  webhookId: string;
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const INTEGRATION_SORT = ['createdDate', 'label', 'type'] as const;

export const integrations = (db: Db) =>
  new Collection<Integration>(
    db,
    'integrations',
    { hub_id: (i) => i.hubId, type: (i) => i.type, label: (i) => i.label, created_date: (i) => i.createdDate },
    { createdDate: 'created_date', label: 'label', type: 'type' },
  );
