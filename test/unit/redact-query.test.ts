import { describe, expect, it } from 'vitest';
import { redactHeader, redactUrl } from '../../src/core/redact.js';

// Query parameters that carry a credential under a short name: a signed URL's `sig` (Azure SAS),
// an OAuth authorization `code`, a `jwt`; beside the ones named like a secret. --debug traces,
// the request journal and Location headers all print URLs through redactUrl.
describe('secret query parameters', () => {
  it('redacts short credential names as well as secret-named ones, and leaves the rest', () => {
    const url = 'https://store.example/blob?sv=2024-01-01&sig=AbC%2Bdef&se=2030&code=4%2F0Ab&jwt=eyJ.x.y&X-Amz-Signature=abc&api_key=k&page=2&size=20&sort=label';
    expect(redactUrl(url)).toBe(
      'https://store.example/blob?sv=2024-01-01&sig=[redacted]&se=2030&code=[redacted]&jwt=[redacted]&X-Amz-Signature=[redacted]&api_key=[redacted]&page=2&size=20&sort=label',
    );
    expect(redactHeader('Location', 'https://x.example/cb?code=secret&state=xyz')).toBe('https://x.example/cb?code=[redacted]&state=xyz');
  });
});
