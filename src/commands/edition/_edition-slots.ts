// Shared by the edition verbs about what an edition contains: slots, slot content, content, conflicts.
import type { ArgSpec } from '../../cli/define.js';
import { col } from '../../output/result.js';

export const editionArg: ArgSpec = { name: 'edition', description: 'edition id', required: true };

export const EDITION_SLOT_COLUMNS = [col('id'), col('slot', 'slotId'), col('label', 'slotLabel'), col('status'), col('empty'), col('conflicts'), col('modified', 'lastModifiedDate')];

export const CONFLICT_COLUMNS = [
  col('item', 'id'),
  col('label'),
  col('versions', (c: { versions: { version: number }[] }) => [...new Set(c.versions.map((v) => v.version))].join(', ')),
  col('resolved', 'resolvedVersion'),
];

export interface EditionSlot {
  id: string;
  editionId: string;
  slotId: string;
  lastModifiedDate: string;
  content: { body: Record<string, unknown> & { _meta?: Record<string, unknown> } };
}
