import { randomUUID } from 'node:crypto';
import type { CheckoutConfiguration, CheckoutStartInput } from '../../src/providers/checkout.js';

/** A start input as the payer-page service makes one, for a configuration of the adapter's kind. */
export function startInput(
  configuration: CheckoutConfiguration,
  overrides: Partial<CheckoutStartInput> = {},
): CheckoutStartInput {
  const paymentTransactionId = overrides.paymentTransactionId ?? randomUUID();
  const requestId = randomUUID();
  return {
    paymentTransactionId,
    ledgerlineReference: 'LL-000123',
    amount: '92.50',
    currency: 'GBP',
    captureType: 'Immediate',
    description: 'Invoices INV-1 and INV-2',
    payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@example.com' },
    returnUrl: `https://ledgerline.example/pay/${requestId}?payment=${paymentTransactionId}`,
    cancelUrl: `https://ledgerline.example/pay/${requestId}?payment=${paymentTransactionId}&cancelled=1`,
    notificationUrl: `https://ledgerline.example/api/v0/webhooks/x/${configuration.id}`,
    configuration,
    ...overrides,
  };
}

/** Everything the adapter recorded, as one text: credentials must never appear in it. */
export const recorded = (...exchanges: { payload: string }[]) =>
  exchanges.map((exchange) => exchange.payload).join('\n');

/**
 * What a payer does on a fake provider's hosted page: follow its link (the page's `<a>` with
 * `linkText`), without following the redirect back to Ledgerline; returns where it sends them.
 */
export async function clickThrough(pageUrl: string, linkText: string): Promise<string> {
  const page = await (await fetch(pageUrl)).text();
  const link = new RegExp(`<a href="([^"]+)">${linkText}</a>`).exec(page);
  if (!link) throw new Error(`no '${linkText}' link on ${page}`);
  const answer = await fetch(new URL(link[1]!.replace(/&amp;/g, '&'), pageUrl), {
    redirect: 'manual',
  });
  return answer.headers.get('location') ?? '';
}
