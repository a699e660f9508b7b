import { body, nonEmpty, z } from '../core/validate.js';
import { INDEX_TYPES } from './store.js';
import { labelProblem, suffixProblem } from './naming.js';

const text = (problem: (s: string) => string | null) =>
  z.string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') }).superRefine((s, ctx) => {
    const message = problem(s);
    if (message) ctx.addIssue({ code: 'custom', message, input: s });
  });

const assignedType = z.object({ contentTypeUri: nonEmpty(1024) });

export const create = body(
  'SearchIndex',
  z.object({
    suffix: text(suffixProblem),
    label: text(labelProblem),
    type: z.enum(INDEX_TYPES, { error: `must be one of ${INDEX_TYPES.join(', ')}` }),
    assignedContentTypes: z.array(assignedType, { error: (i) => (i.input === undefined ? 'is required (an array of {contentTypeUri})' : 'must be an array of {contentTypeUri}') }).max(100),
  }),
);

/** Clients send back the whole index; only the label can change. */
export const update = body('SearchIndex', z.object({ label: text(labelProblem).optional() }));

/** Settings are free-form and stored as sent; `replicas` names the managed replicas. */
export const settings = body(
  'SearchIndexSettings',
  z.object({ replicas: z.array(z.string(), { error: 'must be an array of index names' }).max(20).optional() }).catchall(z.unknown()),
);

export const assign = body('AssignedContentType', assignedType);

// Search queries and events (the sandbox's stand-in for the search provider's own API).

const stringList = z.array(z.string().max(512)).max(100);

export const query = body(
  'SearchQuery',
  z.object({
    query: z.string().max(512).default(''),
    filters: z.string().max(4096).optional(),
    facetFilters: z.union([z.string().max(1024), z.array(z.union([z.string().max(1024), z.array(z.string().max(1024)).max(100)])).max(100)]).optional(),
    hitsPerPage: z.number().int().min(1).max(1000).optional(),
    page: z.number().int().min(0).default(0),
    clickAnalytics: z.boolean().default(false),
    analytics: z.boolean().default(true),
    analyticsTags: stringList.default([]),
    userToken: z.string().min(1).max(129).optional(),
  }),
);

export const event = body(
  'SearchEvent',
  z
    .object({
      eventType: z.enum(['click', 'conversion']),
      queryID: nonEmpty(64),
      objectIDs: z.array(z.string().min(1).max(512)).min(1, 'must name at least one object').max(20),
      positions: z.array(z.number().int().min(1)).max(20).optional(),
      userToken: z.string().min(1).max(129).optional(),
    })
    .superRefine((e, ctx) => {
      if (e.eventType !== 'click') return;
      if (!e.positions) ctx.addIssue({ code: 'custom', path: ['positions'], message: 'is required for a click: one position per objectID', input: undefined });
      else if (e.positions.length !== e.objectIDs.length) ctx.addIssue({ code: 'custom', path: ['positions'], message: 'must have one position per objectID', input: e.positions });
    }),
);
