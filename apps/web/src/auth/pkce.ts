/** PKCE (RFC 7636) and state values of spec 1 §4, spec 3 §9. Pure apart from the random source. */

type RandomSource = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

const defaultRandom: RandomSource = (bytes) => crypto.getRandomValues(bytes);

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 64 random bytes, base64url: 86 characters from the RFC 7636 unreserved set. */
export function generateCodeVerifier(random: RandomSource = defaultRandom): string {
  return base64UrlEncode(random(new Uint8Array(64)));
}

/** S256: base64url(SHA-256(ASCII(verifier))). */
export async function createCodeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

/** 8 random bytes as lowercase hex: 16 characters. */
export function generateState(random: RandomSource = defaultRandom): string {
  return Array.from(random(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
}
