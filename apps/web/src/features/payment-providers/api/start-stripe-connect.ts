import { authoriseStart } from '@ledgerline/contract';
import { companyClient } from '@/lib/http';

/**
 * POST stripe/account/connect/start: Stripe's authorisation address with a state the server
 * issued for this session, for a new configuration (null) or an existing one.
 */
export function startStripeConnect(paymentProviderId: string | null) {
  return companyClient.post(
    '/stripe/account/connect/start',
    { paymentProviderId },
    { schema: authoriseStart },
  );
}
