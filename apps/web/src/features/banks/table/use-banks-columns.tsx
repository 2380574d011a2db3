import type { Bank } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';

const empty = (value: string | null) => value ?? '-';

/** spec 2 §2 Banks: every column sorts and has a contains filter on the server. */
export function useBanksColumns() {
  return useMemo(
    (): DataGridColumn<Bank>[] => [
      { accessor: 'accountName', title: 'Account name', sortable: true, filter: { type: 'text' } },
      {
        accessor: 'currency',
        title: 'Currency',
        sortable: true,
        filter: { type: 'text' },
        width: 120,
      },
      {
        accessor: 'accountNumber',
        title: 'Account number',
        sortable: true,
        filter: { type: 'text' },
        render: (bank) => empty(bank.accountNumber),
      },
      {
        accessor: 'bankName',
        title: 'Bank name',
        sortable: true,
        filter: { type: 'text' },
        render: (bank) => empty(bank.bankName),
      },
      {
        accessor: 'source',
        title: 'Source',
        sortable: true,
        filter: { type: 'text' },
        render: (bank) => empty(bank.source),
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        width: 80,
        render: (bank) => (
          <Anchor component={Link} to={`/banks/${bank.id}`} aria-label={`View ${bank.accountName}`}>
            View
          </Anchor>
        ),
      },
    ],
    [],
  );
}
