import { describe, expect, it } from 'vitest';
import { readSignInCallback, safeReturnPath, verifyState, withoutCallbackParams } from './callback';

const redirect = 'https://app.test/signin-callback';

describe('sign-in callback detection', () => {
  it('is the redirect address with a code and a state', () => {
    expect(readSignInCallback(`${redirect}?code=abc&state=0011`, redirect)).toEqual({
      kind: 'code',
      code: 'abc',
      state: '0011',
    });
  });

  it('is not a callback without both code and state, or on another address', () => {
    expect(readSignInCallback(`${redirect}?code=abc`, redirect)).toBeNull();
    expect(readSignInCallback(`${redirect}?state=1`, redirect)).toBeNull();
    expect(readSignInCallback('https://app.test/?code=abc&state=1', redirect)).toBeNull();
    expect(
      readSignInCallback('https://other.test/signin-callback?code=a&state=1', redirect),
    ).toBeNull();
  });

  it('reads a provider error on the redirect address', () => {
    expect(
      readSignInCallback(`${redirect}?error=access_denied&error_description=No&state=1`, redirect),
    ).toEqual({ kind: 'error', error: 'access_denied', description: 'No', state: '1' });
  });

  it('removes code and state from the address and keeps the rest', () => {
    expect(withoutCallbackParams(`${redirect}?code=abc&state=1&keep=yes#top`)).toBe(
      '/signin-callback?keep=yes#top',
    );
  });

  it("refuses a state that is not the stored one with 'State not matched'", () => {
    expect(() => verifyState('aaaa', 'bbbb')).toThrow('State not matched');
    expect(() => verifyState('aaaa', null)).toThrow('State not matched');
    expect(() => verifyState('aaaa', 'aaaa')).not.toThrow();
  });

  it('restores only same-origin paths', () => {
    expect(safeReturnPath('/payment-requests?page=2')).toBe('/payment-requests?page=2');
    expect(safeReturnPath('//evil.test/')).toBe('/');
    expect(safeReturnPath('https://evil.test/')).toBe('/');
    expect(safeReturnPath(null)).toBe('/');
  });
});
