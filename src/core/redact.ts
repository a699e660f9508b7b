// Secrets never reach output, logs, --debug traces or error messages.

/**
 * A key names a secret however a platform spells it (client-secret, privateKey, apiSecret,
 * secret_key, api-key, access_token...). A credentials object is secret whole, as the service
 * masks every value of one whatever its keys.
 */
const SECRET_WORDS = /secret|password|passwd|passphrase|token|apikey|privatekey|authorization|credential|signature|cookie/;

export function isSecretKey(key: string): boolean {
  return SECRET_WORDS.test(key.toLowerCase().replace(/[-_\s.]/g, ''));
}

export const REDACTED = '[redacted]';

const isSet = (v: unknown) => v !== null && v !== undefined && v !== '';

/** The same shape with every value that is set replaced (what the service does to credentials). */
function hideAll(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideAll);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideAll(v)]));
  return isSet(value) ? REDACTED : value;
}

/** A deep copy of a JSON value with secret fields replaced. */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (value && typeof value === 'object') {
    // Entries that declare themselves secret ({key, value, secret: true}, as webhook headers do),
    // or name a secret field: a header {key: 'X-Api-Key', value}, an error {property, invalidValue}.
    const entry = value as { secret?: unknown; key?: unknown; property?: unknown };
    const named = [entry.key, entry.property].some((n) => typeof n === 'string' && isSecretKey(n));
    const hidesValue = entry.secret === true || named;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) || (hidesValue && (k === 'value' || k === 'invalidValue')) ? hideAll(v) : redact(v);
    return out as T;
  }
  return value;
}

/**
 * Redacts a form-encoded or JSON body text (JSON cut short or invalid: field by field), and the
 * secret query parameters of any URL in it (a service may echo the query in its links).
 */
export function redactText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return redactQuery(JSON.stringify(redact(JSON.parse(trimmed))));
    } catch {
      /* not JSON after all: fall through to pattern redaction */
    }
  }
  return redactQuery(text.replace(/("((?:[^"\\]|\\.)*)"\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\]\s]+)/g, (all, head: string, key: string) => (isSecretKey(key) ? `${head}"${REDACTED}"` : all)));
}

/**
 * `name=value` pairs of a query string or form body (at the start, after ?, & or a space) whose
 * name is a secret's, or `key` (an API key's usual query name), with the value redacted. Values
 * end at &, #, whitespace, a quote or a backslash, so a URL inside JSON text keeps its JSON intact.
 */
export function redactQuery(text: string): string {
  return text.replace(/(^|[&?\s])([^&=?#\s"'\\]+)=([^&#\s"'\\]*)/g, (all, lead: string, key: string) => (isSecretParam(decodeURIComponentSafe(key)) ? `${lead}${key}=${REDACTED}` : all));
}

/** A URL as safe to print: secret query parameters redacted. */
export const redactUrl = (url: string): string => redactQuery(url);

/** A query parameter's name that holds a secret: a secret's name, or `key` / `api_key` (an API key's usual query name). */
export const isSecretParam = (name: string) => isSecretKey(name) || /^(api[-_]?)?key$/i.test(name);

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Header value as safe to print. */
export function redactHeader(name: string, value: string): string {
  if (/^(proxy-)?authorization$/i.test(name)) return value.replace(/^(\w+)\s+.*/, `$1 ${REDACTED}`);
  if (isSecretKey(name) || /api-?key|auth|session/i.test(name)) return REDACTED;
  // Location, Link, Content-Location: URLs whose query may carry a secret.
  return redactQuery(value);
}
