import { describe, expect, it } from 'vitest';
import { daysOverdue } from './overdue-badge';

const today = new Date(2026, 10, 26, 9, 0);
const invoice = {
  dueDate: '2026-11-20',
  paidStatus: 'Unpaid',
  transactionType: 'Invoice',
} as const;

describe('daysOverdue', () => {
  it('counts calendar days past the due date', () => {
    expect(daysOverdue(invoice, today)).toBe(6);
    expect(daysOverdue({ ...invoice, dueDate: '2026-11-25' }, today)).toBe(1);
    expect(daysOverdue({ ...invoice, paidStatus: 'PartPaid' }, today)).toBe(6);
  });

  it('is null when due today or later, paid in full, a credit note or without a due date', () => {
    expect(daysOverdue({ ...invoice, dueDate: '2026-11-26' }, today)).toBeNull();
    expect(daysOverdue({ ...invoice, paidStatus: 'FullyPaid' }, today)).toBeNull();
    expect(daysOverdue({ ...invoice, transactionType: 'CreditNote' }, today)).toBeNull();
    expect(daysOverdue({ ...invoice, dueDate: null }, today)).toBeNull();
  });
});
