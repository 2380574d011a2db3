import type { Transaction } from '@ledgerline/contract';
import { Badge } from '@mantine/core';
import { differenceInCalendarDays, parseISO } from 'date-fns';

type Dated = Pick<Transaction, 'dueDate' | 'paidStatus' | 'transactionType'>;

/**
 * How many days a transaction is past its due date, or null when it is not
 * overdue: no due date, not yet due, paid in full, or a credit note (it owes the customer).
 */
export function daysOverdue(transaction: Dated, today: Date): number | null {
  if (
    !transaction.dueDate ||
    transaction.paidStatus === 'FullyPaid' ||
    transaction.transactionType === 'CreditNote'
  )
    return null;
  const days = differenceInCalendarDays(today, parseISO(transaction.dueDate.slice(0, 10)));
  return days > 0 ? days : null;
}

/** 'Overdue · 12 days' beside the paid status of a transaction past due; nothing otherwise. */
export function OverdueBadge({
  transaction,
  today = new Date(),
}: {
  transaction: Dated;
  today?: Date;
}) {
  const days = daysOverdue(transaction, today);
  if (days === null) return null;
  return (
    <Badge color="red" variant="outline" radius="sm">
      Overdue · {days} {days === 1 ? 'day' : 'days'}
    </Badge>
  );
}
