// Loaded into the intercepted command's Node processes (NODE_OPTIONS=--import, set by
// `cms sandbox exec --intercept`): Node's own fetch ignores HTTPS_PROXY before Node 24 (and
// NODE_USE_ENV_PROXY before 24 and 22.21), so undici's EnvHttpProxyAgent becomes its global
// dispatcher; it reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY as the command was given them.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const envProxyBuiltIn = major >= 24 || (major === 22 && minor >= 21);
if (!envProxyBuiltIn || process.env.NODE_USE_ENV_PROXY !== '1') {
  try {
    const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
    setGlobalDispatcher(new EnvHttpProxyAgent());
  } catch {
    // Without undici (an install without it), fetch goes direct: HTTP clients that read the proxy variables still go through.
  }
}
export {};
