import { describe, expect, it } from 'vitest';
import { notificationsOf, staffNotifications, wordingOf } from './payment-notices.js';

describe('notificationsOf (spec 3 §3)', () => {
  it('tells staff and the payer when a pending payment is captured, the payer alone when it is cancelled', () => {
    expect(notificationsOf({ paymentTransactionId: 'p', status: 'Paid', from: 'Pending' })).toEqual(
      ['TenantPaymentSuccessful', 'PaymentPendingCompleted'],
    );
    expect(
      notificationsOf({ paymentTransactionId: 'p', status: 'Cancelled', from: 'Pending' }),
    ).toEqual(['PaymentPendingCancelled']);
    expect(
      notificationsOf({ paymentTransactionId: 'p', status: 'Failed', from: 'Pending' }),
    ).toEqual([]);
  });

  it("maps a provider's event to the staff notification, and Pending to the payer's too", () => {
    const of = (status: Parameters<typeof notificationsOf>[0]['status']) =>
      notificationsOf({ paymentTransactionId: 'p', status, from: 'Provider' });
    expect(of('Paid')).toEqual(['TenantPaymentSuccessful']);
    expect(of('Failed')).toEqual(['TenantPaymentFailed']);
    expect(of('Processing')).toEqual(['TenantPaymentProcessing']);
    expect(of('Pending')).toEqual(['TenantPaymentProcessing', 'PaymentPending']);
    expect(of('Disputed')).toEqual(['TenantPaymentDisputed']);
    expect(of('DisputeWon')).toEqual(['TenantPaymentDisputed']);
    expect(of('DisputeLost')).toEqual(['TenantPaymentDisputed']);
    expect(of('Cancelled')).toEqual([]);
  });

  it('sends the Tenant notifications to staff and the others to the payer', () => {
    expect([...staffNotifications].every((name) => name.startsWith('Tenant'))).toBe(true);
    expect(staffNotifications.has('PaymentPending')).toBe(false);
  });
});

describe('wordingOf', () => {
  const values = { amount: 'GBP 10.00', company: 'Acme', customer: 'Bo', reference: 'R1' };

  it('words a dispute by its stage', () => {
    expect(wordingOf('TenantPaymentDisputed', values, 'Disputed').subject).toBe(
      'Payment disputed: GBP 10.00 from Bo',
    );
    expect(wordingOf('TenantPaymentDisputed', values, 'DisputeWon').subject).toBe(
      'Dispute won: GBP 10.00 from Bo',
    );
    expect(wordingOf('TenantPaymentDisputed', values, 'DisputeLost').subject).toBe(
      'Dispute lost: GBP 10.00 from Bo',
    );
  });

  it('keeps the whole value in the lead and a single line in the subject', () => {
    const typed = { ...values, customer: 'Bo\r\nBcc: x@example.com' };
    const wording = wordingOf('TenantPaymentSuccessful', typed);
    expect(wording.subject).not.toMatch(/[\r\n]/);
    expect(wording.lead).toContain('Bo\r\nBcc: x@example.com');
    expect(wordingOf('PaymentPending', values).lead).toBe(
      'Your payment of GBP 10.00 to Acme has been received and is pending (reference R1).',
    );
  });
});
