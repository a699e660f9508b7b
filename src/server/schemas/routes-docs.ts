import type { RequestContext } from '../core/context.js';
import { coreDocument, dialectDocument, localizationDocument } from './docs.js';

// The dialect and core definition documents, with ids on the origin the request came to.
const serve = (doc: object) => ({ status: 200, raw: { contentType: 'application/schema+json', text: JSON.stringify(doc, null, 2) } });

export const dialect = (ctx: RequestContext) => serve(dialectDocument(ctx.origin));
export const core = (ctx: RequestContext) => serve(coreDocument(ctx.origin));
export const localization = (ctx: RequestContext) => serve(localizationDocument(ctx.origin));
