import type { WebhookEvent } from '../webhooks/index.js';
import type { Integration, IntegrationType } from './store.js';

/** What differs between the two kinds of integration; everything else is shared. */
export interface IntegrationKind {
  type: IntegrationType;
  /** Entity name in error bodies. */
  entity: string;
  /** Request fields kept as settings (everything but hubId and label). */
  settingsFields: readonly string[];
  /** Settings that hold credentials: their values never leave the service. */
  secretFields: readonly string[];
  /** Events its webhook delivers to the platform. */
  events: WebhookEvent[];
  /** Label of its webhook: the description labels it for the site the integration supports. */
  webhookLabel(integration: Pick<Integration, 'id' | 'label'>): string;
  /** Whether its webhook delivers: a marketing integration can be switched off. */
  active(settings: Record<string, unknown>): boolean;
}

export const COMMERCE: IntegrationKind = {
  type: 'commerce',
  entity: 'CommerceIntegration',
  settingsFields: ['commerce-credentials', 'cms-credentials', 'commerce-api', 'contentSlots', 'rendering', 'contentAssets', 'localeMappings'],
  secretFields: ['commerce-credentials', 'cms-credentials'],
  events: ['edition.scheduled', 'edition.unscheduled', 'content-item.published'],
  webhookLabel: (i) => `Commerce integration: ${i.label || i.id}`,
  active: () => true,
};

export const MARKETING: IntegrationKind = {
  type: 'marketing',
  entity: 'MarketingIntegration',
  settingsFields: ['active', 'marketing-credentials', 'cms-credentials', 'rendering', 'contentAssets'],
  secretFields: ['marketing-credentials', 'cms-credentials'],
  events: ['content-item.published'],
  webhookLabel: (i) => `Marketing integration: ${i.label || i.id}`,
  active: (settings) => settings.active !== false,
};

export const KINDS: Record<IntegrationType, IntegrationKind> = { commerce: COMMERCE, marketing: MARKETING };
