import type { Exchange } from '../core/transport.js';
import { redactHeader, redactText, redactUrl } from '../core/redact.js';

const MAX_BODY = 4000;

/** --debug: every request and response on stderr, with secrets redacted (headers, body fields, query parameters in every URL). */
export function debugTrace(write: (s: string) => void) {
  return (x: Exchange): void => {
    const lines = [`> ${x.method} ${redactUrl(x.url)}${x.attempt ? ` (retry ${x.attempt})` : ''}`];
    for (const [k, v] of Object.entries(x.requestHeaders)) lines.push(`> ${k}: ${redactHeader(k, v)}`);
    if (x.requestBody) lines.push(`> ${clip(redactText(x.requestBody))}`);
    if (x.error) lines.push(`< network error after ${x.ms} ms: ${x.error.message}`);
    else {
      lines.push(`< ${x.status} (${x.ms} ms)`);
      x.responseHeaders?.forEach((v, k) => lines.push(`< ${k}: ${redactHeader(k, v)}`));
      if (x.responseBody) lines.push(`< ${clip(redactText(x.responseBody))}`);
    }
    write(`${lines.join('\n')}\n\n`);
  };
}

function clip(s: string): string {
  return s.length > MAX_BODY ? `${s.slice(0, MAX_BODY)}… (${s.length} characters)` : s;
}
