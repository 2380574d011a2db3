import { createHash } from 'node:crypto';

/**
 * Opayo Server integration, protocol 4.00 (reference/providers.md): the wire details shared by the
 * payer-page checkout (register, notification) and the release / abort calls.
 */
export const opayoProtocol = '4.00';

/** Where a configuration's Server calls go: `{host}/gateway/service/{service}.vsp`. */
export function opayoServiceUrl(host: string, service: string): string {
  return `${host.replace(/\/$/, '')}/gateway/service/${service}.vsp`;
}

/** An answer of Opayo's Server services: `Key=Value` lines (CRLF), the value after the first `=`. */
export function parseOpayoAnswer(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return fields;
}

/**
 * What Ledgerline keeps sealed with an Opayo Server payment (CheckoutStart.secret): the
 * SecurityKey of the register answer, the VendorTxCode we sent, and the TxAuthNo the notification
 * of an authorised payment adds. Release and abort need all of them.
 */
export interface OpayoServerSecret {
  securityKey: string;
  vendorTxCode: string;
  txAuthNo?: string;
}

export function readServerSecret(secret: string | null | undefined): OpayoServerSecret | null {
  if (!secret) return null;
  try {
    const parsed = JSON.parse(secret) as Partial<OpayoServerSecret>;
    return typeof parsed.securityKey === 'string' && typeof parsed.vendorTxCode === 'string'
      ? {
          securityKey: parsed.securityKey,
          vendorTxCode: parsed.vendorTxCode,
          ...(typeof parsed.txAuthNo === 'string' ? { txAuthNo: parsed.txAuthNo } : {}),
        }
      : null;
  } catch {
    return null;
  }
}

/**
 * The notification's fields in the order protocol 4.00 signs them (Token only for token
 * registrations, which Ledgerline does not make); the SecurityKey and the lower-case vendor name
 * take their places in between.
 */
const signedBefore = ['VPSTxId', 'VendorTxCode', 'Status', 'TxAuthNo'] as const;
const signedAfter = [
  'AddressResult',
  'PostCodeResult',
  'CV2Result',
  'GiftAid',
  '3DSecureStatus',
  'CAVV',
  'AddressStatus',
  'PayerStatus',
  'CardType',
  'Last4Digits',
  'DeclineCode',
  'ExpiryDate',
  'FraudResponse',
  'BankAuthCode',
  'ACSTransID',
  'DSTransID',
  'SchemeTraceID',
] as const;

/** VPSSignature: upper-case hex MD5 of the signed fields, the vendor name and the SecurityKey. */
export function opayoNotificationSignature(
  fields: URLSearchParams | Map<string, string>,
  vendorName: string,
  securityKey: string,
): string {
  const value = (name: string) => fields.get(name) ?? '';
  const content = [
    ...signedBefore.map(value),
    vendorName.toLowerCase(),
    value('AVSCV2'),
    value('Token'),
    securityKey,
    ...signedAfter.map(value),
  ].join('');
  return createHash('md5').update(content, 'utf8').digest('hex').toUpperCase();
}

/** Opayo's answer lines to a notification (CRLF), as it reads them. */
export function notificationReply(
  status: 'OK' | 'INVALID' | 'ERROR',
  redirectUrl: string,
  detail: string,
): string {
  return [`Status=${status}`, `RedirectURL=${redirectUrl}`, `StatusDetail=${detail}`].join('\r\n');
}

/** An answer with its SecurityKey (and anything else secret) masked, for the provider event. */
export function withoutSecrets(fields: Record<string, string>): Record<string, string> {
  const masked = { ...fields };
  for (const key of ['SecurityKey']) if (key in masked) masked[key] = '[kept sealed]';
  return masked;
}
