import type { RequestContext, Reply } from '../context.js';

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;
type Family = Record<string, Handler>;

// Route families load on first use: a CLI command that lists hubs never loads the item code.
export const families: Record<string, () => Promise<Family>> = {
  oauth: () => import('./oauth.js'),
  sandbox: () => import('./sandbox.js'),
  root: () => import('./root.js'),
  hubs: () => import('./hubs.js'),
  repositories: () => import('./repositories.js'),
};
