import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { RequestContext, Reply } from '../core/context.js';
import { notFound } from '../core/errors.js';

// The sandbox console: one HTML page and its bundled script and style (dist/console, built by
// scripts/build-console.mjs). They hold no data: the page signs in and calls the API with a
// bearer token like any other client, so these are the only routes it adds without a token.

// From the package root, so the same path works from dist/server/routes and (in tests) src/server/routes.
const DIST = new URL('../../../dist/console/', import.meta.url);
const TYPES: Record<string, string> = { js: 'text/javascript;charset=UTF-8', css: 'text/css;charset=UTF-8' };
/** app.js, app.css and the chunks of views loaded on demand: one plain file name, no path. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css)$/;

/** Headers every console answer carries: no inline script, no framing, no referrer, no sniffing. */
const SECURITY: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__sandbox/console/app.css">
<script type="module" src="/__sandbox/console/app.js"></script>
</head>
<body><div id="app"><p class="loading">Loading the console…</p></div></body>
</html>
`;

const cache = new Map<string, { text: string; etag: string }>();

function load(name: string): { text: string; etag: string } {
  let entry = cache.get(name);
  if (!entry) {
    let text: string;
    try {
      text = readFileSync(new URL(name, DIST), 'utf8');
    } catch {
      throw notFound('ConsoleAsset', name);
    }
    entry = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"` };
    cache.set(name, entry);
  }
  return entry;
}

/** GET / and /__sandbox/console: the page (never cached: it names the current assets). */
export function page(): Reply {
  return { status: 200, headers: { ...SECURITY, 'Cache-Control': 'no-store' }, raw: { contentType: 'text/html;charset=UTF-8', text: PAGE } };
}

/** GET /__sandbox/console/:asset: a script or style of the bundle, revalidated by ETag (they change with each build). */
export function asset(ctx: RequestContext): Reply {
  const name = ctx.params.asset!;
  const type = ASSET_NAME.exec(name);
  if (!type) throw notFound('ConsoleAsset', name);
  const { text, etag } = load(name);
  const headers = { ...SECURITY, 'Cache-Control': 'no-cache', ETag: etag };
  if (ctx.req.header('if-none-match') === etag) return { status: 304, headers };
  return { status: 200, headers, raw: { contentType: TYPES[type[1]!]!, text } };
}
