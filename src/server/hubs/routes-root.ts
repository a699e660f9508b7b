import { createRequire } from 'node:module';
import { ok, type RequestContext } from '../core/context.js';
import { link, templated } from '../core/hal.js';

export function getRoot(ctx: RequestContext) {
  return ok({
    _links: {
      self: link(ctx.base),
      hubs: templated(ctx.href('/hubs{?page,size,sort}')),
      admin: link(ctx.href('/admin')),
      localization: link(ctx.href('/localization')),
      management: link(ctx.base),
    },
  });
}

let cached: { languages: string[]; countries: string[] } | null = null;

/** Full ISO 639-1 language and ISO 3166-1 alpha-2 country lists, from maintained packages. */
export function getLocalization(ctx: RequestContext) {
  if (!cached) {
    const require = createRequire(import.meta.url);
    const iso6391 = require('iso-639-1') as { getAllCodes(): string[] };
    const countries = require('i18n-iso-countries') as { getAlpha2Codes(): Record<string, string> };
    cached = {
      languages: [...iso6391.getAllCodes()].sort(),
      countries: Object.keys(countries.getAlpha2Codes()).sort(),
    };
  }
  return ok({ ...cached, _links: { self: link(ctx.href('/localization')) } });
}
