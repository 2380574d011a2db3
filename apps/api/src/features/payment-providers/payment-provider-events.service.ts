import {
  paymentProviderMessages,
  type PageQuery,
  type paymentProviderEventQuery,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { NotFoundError } from '../../platform/errors.js';
import type { PaymentProviderEventsRepository } from './payment-provider-events.repository.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { PaymentProvidersRepository } from './payment-providers.repository.js';

/** A configuration's provider events, for its provider data dialog. */
export function createPaymentProviderEventsService(deps: {
  providers: PaymentProvidersRepository;
  events: PaymentProviderEventsRepository;
}) {
  return {
    /** Another company's or tenant's configuration is not found (style.md §4). */
    async page(
      tx: Tx,
      scope: DatasetScope,
      paymentProviderId: string,
      query: PageQuery<(typeof paymentProviderEventQuery)['fields']>,
    ) {
      if (!(await deps.providers.find(tx, scope, paymentProviderId)))
        throw new NotFoundError(paymentProviderMessages.notFound);
      return deps.events.page(tx, scope, paymentProviderId, query);
    },
  };
}
export type PaymentProviderEventsService = ReturnType<typeof createPaymentProviderEventsService>;
