import { describe, expect, it } from 'vitest';
import { base64UrlEncode, createCodeChallenge, generateCodeVerifier, generateState } from './pkce';

describe('PKCE helpers', () => {
  it('makes an 86-character base64url verifier from 64 random bytes', () => {
    const verifier = generateCodeVerifier();
    expect(verifier).toHaveLength(86);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(generateCodeVerifier()).not.toBe(verifier);
  });

  it('encodes bytes as base64url without padding', () => {
    expect(base64UrlEncode(new Uint8Array([251, 255, 191]))).toBe('-_-_');
    expect(base64UrlEncode(new Uint8Array([1]))).toBe('AQ');
  });

  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    await expect(createCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes the state from 8 random bytes as 16 hex characters', () => {
    const state = generateState();
    expect(state).toMatch(/^[0-9a-f]{16}$/);
    expect(generateState((bytes) => bytes.fill(10))).toBe('0a0a0a0a0a0a0a0a');
  });
});
