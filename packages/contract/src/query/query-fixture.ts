import { defineQueryFields } from './query-fields.js';

/** A whitelist shaped like payment transactions (spec 2 §2), shared by this folder's tests. */
export const transactionQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    statusDateTime: { type: 'date', sortable: true, filterable: true },
    status: {
      type: 'enum',
      values: ['Paid', 'Failed', 'Pending', 'WaitingToBeAllocated'],
      filterable: true,
    },
    customerName: { type: 'string', sortable: true, filterable: true },
    amount: { type: 'number', sortable: true, filterable: true },
    isTest: { type: 'boolean', filterable: true },
    reference: { type: 'string', sortable: true },
  },
  { defaultSort: '-statusDateTime', expand: ['paymentrequest', 'account'] },
);
