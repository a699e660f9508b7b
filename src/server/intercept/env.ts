import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { fileURLToPath } from 'node:url';

// The environment that sends an intercepted command's requests through the proxy and makes it
// trust the proxy's CA, and nothing else: every variable names files of the data directory's
// intercept/ directory or the proxy on 127.0.0.1 (docs/testing-with-the-sandbox.md has the table).

/** Loopback never goes through the proxy: the sandbox itself, and the command's own servers. */
export const NO_PROXY = 'localhost,127.0.0.1,::1';

/**
 * Node's own fetch before Node 24 ignores HTTPS_PROXY: this preload makes it use the proxy. Named
 * from the depth of this file's build (dist/server/intercept/), which is the CLI bundle's depth
 * too (dist/bundle/cli/main.cjs); run from the sources (tests), the build's.
 */
export function preloadFile(): string {
  const built = fileURLToPath(new URL('../../server/intercept/preload.js', import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL('../../../dist/server/intercept/preload.js', import.meta.url));
}

/**
 * The bundle for runtimes whose CA setting replaces their roots (OpenSSL's SSL_CERT_FILE, Python's
 * REQUESTS_CA_BUNDLE, curl's CURL_CA_BUNDLE): node's roots and the CA, so hosts that pass
 * through still verify. Written beside ca.pem when missing or stale.
 */
export function writeBundle(caFile: string): string {
  const file = join(dirname(caFile), 'bundle.pem');
  const ca = readFileSync(caFile, 'utf8');
  const want = `${rootCertificates.join('\n')}\n${ca}`;
  let have: string | null = null;
  try {
    have = readFileSync(file, 'utf8');
  } catch {
    /* none yet */
  }
  if (have !== want) {
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, want, { mode: 0o644 });
    renameSync(tmp, file);
  }
  return file;
}

export interface InterceptEnv {
  proxyUrl: string;
  caFile: string;
  bundleFile: string;
  leafSpki: string;
  /** The caller's NODE_OPTIONS, kept before the preload. */
  nodeOptions?: string;
}

/** The variables, in the order the docs' table lists them. */
export function interceptEnv(e: InterceptEnv): Record<string, string> {
  const preload = `--import ${JSON.stringify(preloadFile())}`;
  return {
    HTTPS_PROXY: e.proxyUrl,
    https_proxy: e.proxyUrl,
    HTTP_PROXY: e.proxyUrl,
    http_proxy: e.proxyUrl,
    NO_PROXY,
    no_proxy: NO_PROXY,
    NODE_USE_ENV_PROXY: '1',
    NODE_OPTIONS: e.nodeOptions?.trim() ? `${e.nodeOptions.trim()} ${preload}` : preload,
    NODE_EXTRA_CA_CERTS: e.caFile,
    SSL_CERT_FILE: e.bundleFile,
    REQUESTS_CA_BUNDLE: e.bundleFile,
    CURL_CA_BUNDLE: e.bundleFile,
    CMS_INTERCEPT_PROXY: e.proxyUrl,
    CMS_INTERCEPT_CA: e.caFile,
    CMS_INTERCEPT_SPKI: e.leafSpki,
  };
}
