import { parseTemplate } from 'url-template';
import { CliError } from './errors.js';

export interface HalLink {
  href: string;
  templated?: boolean;
}

export interface HalResource {
  _links?: Record<string, HalLink | HalLink[]>;
  [field: string]: unknown;
}

/** The href of a named link, its RFC 6570 template expanded with `vars` when templated. */
export function linkHref(resource: HalResource, rel: string, vars: Record<string, unknown> = {}): string {
  const raw = resource._links?.[rel];
  const l = Array.isArray(raw) ? raw[0] : raw;
  if (!l) {
    throw new CliError(`The '${rel}' action is not available on this resource`, 1, 'The resource may be in a state that does not allow it, or the client lacks the permission.');
  }
  return l.templated ? parseTemplate(l.href).expand(vars as never) : l.href;
}

export function hasLink(resource: HalResource, rel: string): boolean {
  return Boolean(resource._links?.[rel]);
}
