import type { Account } from '@ledgerline/contract';
import { Anchor, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { Money } from '@/ui/money';

/** spec 2 §2 Accounts list: reference, name, balance, credit limit, view; text filters on reference and name. Overdue added beside the balance. */
export function useAccountsColumns() {
  return useMemo(
    (): DataGridColumn<Account>[] => [
      {
        accessor: 'accountReference',
        title: 'Account reference',
        sortable: true,
        filter: { type: 'text' },
        noWrap: true,
      },
      { accessor: 'name', title: 'Name', sortable: true, filter: { type: 'text' } },
      {
        accessor: 'balance',
        title: 'Balance',
        sortable: true,
        textAlign: 'right',
        noWrap: true,
        render: (account) => <Money amount={account.balance} currency={account.currency} />,
      },
      {
        // What the account owes past due, beside its balance (red when any).
        accessor: 'overdueAmount',
        title: 'Overdue',
        sortable: true,
        textAlign: 'right',
        noWrap: true,
        render: (account) =>
          account.overdueAmount > 0 ? (
            <Text span c="red.9" fw={600} inherit>
              <Money amount={account.overdueAmount} currency={account.currency} />
            </Text>
          ) : (
            <Money amount={account.overdueAmount} currency={account.currency} />
          ),
      },
      {
        accessor: 'creditLimit',
        title: 'Credit limit',
        sortable: true,
        textAlign: 'right',
        noWrap: true,
        render: (account) => <Money amount={account.creditLimit} currency={account.currency} />,
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        width: 80,
        render: (account) => (
          <Anchor
            component={Link}
            to={`/accounts/${account.id}`}
            aria-label={`View ${account.accountReference}`}
          >
            View
          </Anchor>
        ),
      },
    ],
    [],
  );
}
