// Secrets never reach output, logs, --debug traces or error messages.

const SECRET_KEYS = /^(client_secret|clientSecret|secret|API_SECRET|access_token|password|token|apiKey|API_KEY|authorization)$/i;

export const REDACTED = '[redacted]';

/** A deep copy of a JSON value with secret-named fields replaced. */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (value && typeof value === 'object') {
    // Entries that declare themselves secret ({key, value, secret: true}, as webhook headers do).
    const declaredSecret = (value as { secret?: unknown }).secret === true;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const hidden = (SECRET_KEYS.test(k) || (declaredSecret && k === 'value')) && v !== null && v !== undefined && v !== '';
      out[k] = hidden ? REDACTED : redact(v);
    }
    return out as T;
  }
  return value;
}

/** Redacts a form-encoded or JSON body text. */
export function redactText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redact(JSON.parse(trimmed)));
    } catch {
      /* not JSON after all: fall through to pattern redaction */
    }
  }
  return text
    .replace(/((?:client_secret|access_token|secret|password)=)[^&\s]*/gi, `$1${REDACTED}`)
    .replace(/("(?:client_secret|clientSecret|access_token|secret|API_SECRET|password|token)"\s*:\s*)"[^"]*"/gi, `$1"${REDACTED}"`);
}

/** Header value as safe to print. */
export function redactHeader(name: string, value: string): string {
  if (/^authorization$/i.test(name)) return value.replace(/^(\w+)\s+.*/, `$1 ${REDACTED}`);
  if (/secret|token|cookie|api-key/i.test(name)) return REDACTED;
  return value;
}
