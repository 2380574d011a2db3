import type { Payer, PayerDetails } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';

const dash = (value: string | null | undefined) => (value && value.trim() !== '' ? value : '-');

export const fullName = (details: PayerDetails) =>
  [details.firstNames, details.surname].filter((part) => part && part.trim() !== '').join(' ');

export const addressLine = (details: PayerDetails) =>
  [
    details.address1,
    details.address2,
    details.address3,
    details.address4,
    details.city,
    details.state,
  ]
    .filter((part) => part && part.trim() !== '')
    .join(', ');

/**
 * spec 2 §2 Payers tab: company name, full name, email, address, post code, created date, view.
 * The /payers list shows the same columns for every account of the company.
 */
export function usePayersColumns() {
  return useMemo(
    (): DataGridColumn<Payer>[] => [
      {
        accessor: 'companyName',
        title: 'Company name',
        sortable: true,
        filter: { type: 'text' },
        render: (payer) => dash(payer.details.companyName),
      },
      {
        accessor: 'fullName',
        field: 'surname',
        title: 'Full name',
        sortable: true,
        render: (payer) => dash(fullName(payer.details)),
      },
      {
        accessor: 'emailAddress',
        title: 'Email',
        sortable: true,
        filter: { type: 'text' },
        render: (payer) => dash(payer.details.emailAddress),
      },
      {
        accessor: 'address',
        title: 'Address',
        render: (payer) => dash(addressLine(payer.details)),
      },
      {
        accessor: 'postCode',
        title: 'Post code',
        sortable: true,
        noWrap: true,
        render: (payer) => dash(payer.details.postCode),
      },
      {
        accessor: 'createdOn',
        title: 'Created',
        sortable: true,
        noWrap: true,
        render: (payer) => <DateTime value={payer.createdOn} />,
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        width: 80,
        render: (payer) => (
          <Anchor
            component={Link}
            to={`/accounts/${payer.accountId}/payers/${payer.id}`}
            aria-label={`View payer ${dash(fullName(payer.details) || payer.details.companyName || payer.details.emailAddress)}`}
          >
            View
          </Anchor>
        ),
      },
    ],
    [],
  );
}
