import type { CheckoutConfiguration, CheckoutPaymentStatus, CheckoutStatus } from '../checkout.js';
import { textOf } from '../checkout-support.js';
import { currencies } from '@ledgerline/contract';
import Big from 'big.js';

/** Opayo Pi's answers and the references a Pi payment carries before and after its card. */

/** A payment waiting for its card identifier: `pi-session:{expiry, epoch seconds}:{key}`. */
export const sessionPrefix = 'pi-session:';
/** A session's key lasts 400 s; a payment still without card details long after is given up. */
export const abandonAfterSeconds = 15 * 60;

export interface PiTransactionAnswer {
  transactionId?: string;
  transactionType?: string;
  status?: string;
  statusCode?: string;
  statusDetail?: string;
  acsUrl?: string;
  cReq?: string;
  /** Minor units (Pi's `amount.totalAmount`, with any surcharge). */
  amount?: { totalAmount?: number; saleAmount?: number; surchargeAmount?: number };
  currency?: string;
  code?: number | string;
  description?: string;
  errors?: { description?: string; property?: string }[];
}

/** What the payer is told when Opayo did not take the payment. */
export const piMessages: Partial<Record<CheckoutPaymentStatus, string>> = {
  NotAuthorised: 'Your card was declined',
  Rejected: 'Opayo did not accept the card for this payment (fraud screening).',
};

export const cut = (value: string, length: number) => value.trim().slice(0, length);

/**
 * What Pi says it took: `amount.totalAmount` in minor units, as a decimal
 * string in major units with the currency's decimals, and the currency; absent when not said.
 */
export function piAmountOf(
  answered: PiTransactionAnswer | null,
): Pick<CheckoutStatus, 'amount' | 'currency'> {
  const total = answered?.amount?.totalAmount;
  const currency = answered?.currency;
  if (typeof total !== 'number' || !Number.isInteger(total) || typeof currency !== 'string')
    return {};
  const decimals = currencies.find((c) => c.code === currency)?.decimalPlaces ?? 2;
  return {
    amount: new Big(total).div(new Big(10).pow(decimals)).toFixed(decimals),
    currency,
  };
}

export function piSessionOf(reference: string | null): { expiry: number; key: string } | null {
  const match = reference ? /^pi-session:(\d{1,12}):([^:]{1,100})$/.exec(reference) : null;
  return match ? { expiry: Number(match[1]), key: match[2]! } : null;
}

/** The session data we give the issuer's page, which it hands back with `cres`. */
export const threeDSSessionDataOf = (paymentTransactionId: string) =>
  Buffer.from(paymentTransactionId, 'utf8').toString('base64url');

/** A Pi answer's JSON body, or null when it is none. */
export function parse(text: string): PiTransactionAnswer | null {
  try {
    return JSON.parse(text) as PiTransactionAnswer;
  } catch {
    return null;
  }
}

/** The vendor and the Basic authorisation of its integration key; null when one is missing. */
export const piCredentialsOf = (configuration: CheckoutConfiguration) => {
  const integrationKey = textOf(configuration.credentials, 'integrationKey');
  const integrationPassword = textOf(configuration.credentials, 'integrationPassword');
  const vendorName = textOf(configuration.credentials, 'vendorName');
  return integrationKey && integrationPassword && vendorName
    ? {
        vendorName,
        authorization: `Basic ${Buffer.from(`${integrationKey}:${integrationPassword}`).toString('base64')}`,
      }
    : null;
};
