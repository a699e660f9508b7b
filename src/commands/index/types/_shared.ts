import { col } from '../../../output/result.js';

interface AssignedType {
  _links?: Record<string, { href: string } | undefined>;
  [field: string]: unknown;
}

const lastSegment = (href: string | undefined) => (href ? href.split('/').pop()! : null);

/** An assigned type with the ids of its webhooks as fields (output drops the links they come from). */
export function withWebhookIds(type: AssignedType): AssignedType {
  return { ...type, activeContentWebhook: lastSegment(type._links?.['active-content-webhook']?.href), archivedContentWebhook: lastSegment(type._links?.['archived-content-webhook']?.href) };
}

export const TYPE_COLUMNS = [col('id'), col('content type', 'contentTypeUri'), col('active webhook', 'activeContentWebhook'), col('archived webhook', 'archivedContentWebhook')];
