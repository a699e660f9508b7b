import { body, nonEmpty, optionalText, z } from '../core/validate.js';

// Commerce and marketing platform integrations (description, Integrations). Objects are taken as
// they are: their fields belong to the platforms.

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const locale = z.string().regex(LOCALE, 'must be a locale such as en-GB');

const object = () => z.record(z.string(), z.unknown(), { error: (i) => (i.input === undefined ? 'is required' : 'must be a JSON object') });
const hubId = nonEmpty(64);

const commerceFields = {
  label: optionalText(255),
  'commerce-credentials': object(),
  'cms-credentials': object(),
  'commerce-api': object(),
  contentSlots: object(),
  rendering: object(),
  contentAssets: object(),
  /** Locale of the commerce platform -> locale of the content. */
  localeMappings: z.record(locale, locale, { error: (i) => (i.input === undefined ? 'is required' : 'must be a JSON object of locale to locale') }),
};

export const commerceCreate = body(
  'CommerceIntegration',
  z.object({
    ...commerceFields,
    hubId,
    label: commerceFields.label.default(''),
    contentSlots: commerceFields.contentSlots.optional(),
    contentAssets: commerceFields.contentAssets.optional(),
    localeMappings: commerceFields.localeMappings.optional(),
  }),
);

export const commerceUpdate = body('CommerceIntegration', z.object({ ...commerceFields, hubId }).partial());

const marketingFields = {
  label: nonEmpty(120),
  active: z.boolean({ error: (i) => (i.input === undefined ? 'is required' : 'must be true or false') }),
  'marketing-credentials': object(),
  'cms-credentials': object(),
  rendering: object(),
  contentAssets: object(),
};

export const marketingCreate = body('MarketingIntegration', z.object({ ...marketingFields, hubId }));

export const marketingUpdate = body('MarketingIntegration', z.object({ ...marketingFields, hubId }).partial());
