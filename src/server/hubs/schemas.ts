import { body, nonEmpty, optionalNonEmpty, z } from '../core/validate.js';

const device = z.object({
  name: nonEmpty(255),
  width: z.number().int().min(0),
  height: z.number().int().min(0),
  orientate: z.boolean(),
});

const hostname = z.object({ hostname: z.string().max(255) });

// Each top-level settings object supplied replaces the stored one whole (PATCH semantics).
const settingsObject = z.object({
  virtualStagingEnvironment: hostname.optional(),
  previewVirtualStagingEnvironment: hostname.optional(),
  applications: z.array(z.object({ name: z.string(), templatedUri: z.string() }).passthrough()).max(100).optional(),
  devices: z.array(device).max(100).optional(),
  localization: z.object({ locales: z.array(nonEmpty(35)).max(500) }).optional(),
  publishing: z
    .object({
      platforms: z
        .object({
          vendor_dam: z.object({ API_KEY: z.string().optional(), API_SECRET: z.string().optional(), endpoint: z.string().optional() }).optional(),
        })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .optional(),
  assetManagement: z.record(z.string(), z.unknown()).optional(),
  // Hub-wide item behaviour, e.g. {validation: {ignoreSchemaValidation: true}}.
  contentItems: z.object({ validation: z.object({ ignoreSchemaValidation: z.boolean().optional() }).optional() }).passthrough().optional(),
});

const hubName = nonEmpty(255).refine(
  (s) => /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(s),
  'may contain only letters, digits, hyphens and underscores, starting with a letter or digit',
);

export const create = body(
  'Hub',
  z.object({
    name: hubName,
    label: nonEmpty(255),
    description: z.string().max(4000).optional(),
    settings: settingsObject.optional(),
  }),
);

export const update = body(
  'Hub',
  z.object({
    name: hubName.optional(),
    label: optionalNonEmpty(255),
    description: z.string().max(4000).nullable().optional(),
  }),
);

export const settings = body('HubSettings', settingsObject);

export const plan = body('Hub', z.object({ plan: z.enum(['DEVELOPER']).nullable() }));
