import { describe, expect, it } from 'vitest';
import { signToken, verifyToken } from '../../src/server/core/auth/tokens.js';

// Token lifetimes (wall-clock time: service.ts passes Date.now()): a token lives at least the
// expires_in the token endpoint announced, whatever the sub-second issue time, and carries the
// client's generation.

const key = Buffer.alloc(32, 7);

describe('signToken / verifyToken', () => {
  it('a token issued at the last millisecond of a second lives its whole ttl, and not a second more', () => {
    const issued = Date.parse('2020-01-01T00:00:00.999Z');
    const token = signToken(key, 'c', 'gen-1', issued, 2);
    expect(verifyToken(key, token, issued + 1_500)).toMatchObject({ ok: true, claims: { sub: 'c', gen: 'gen-1' } });
    expect(verifyToken(key, token, issued + 2_100)).toEqual({ ok: false, reason: 'expired' });
  });

  it('another key or a tampered token is unknown', () => {
    const token = signToken(key, 'c', 'g', Date.now(), 60);
    expect(verifyToken(Buffer.alloc(32, 8), token, Date.now())).toEqual({ ok: false, reason: 'unknown' });
    const [h, , sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'c', gen: 'other', iat: 0, exp: 9e9 })).toString('base64url')}.${sig}`;
    expect(verifyToken(key, forged, Date.now())).toEqual({ ok: false, reason: 'unknown' });
  });
});
