import { sandboxCardBodySchema, sandboxCards, startPaymentBodySchema } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { sandboxTestCards } from './components/sandbox-card-form';
import { payMessages, validatePayment, validateSandboxCard } from './validation';

// The page writes out the contract's rules to keep zod out of its bundle (docs/decisions/062-the-payer-page-s-bundle.md
// "The payer page's bundle"): these run the same inputs through both and fail on a disagreement.

const configurationId = '0190d7a2-0000-7000-8000-0000000000c1';

describe('the payer page’s rules agree with the contract', () => {
  it('lists the contract’s Sandbox test cards', () => {
    expect(sandboxTestCards).toEqual(sandboxCards);
  });

  it('checks the Sandbox card as sandboxCardBodySchema does, with its messages', () => {
    const valid = {
      cardholderName: ' Ada ',
      cardNumber: '4242 4242-4242 4242',
      expiry: '12/30',
      cvc: '123',
    };
    const cases = [
      valid,
      { ...valid, cardholderName: '   ' },
      { ...valid, cardholderName: 'x'.repeat(101) },
      { ...valid, cardNumber: '4242' },
      { ...valid, cardNumber: '4242 4242 4242 424a' },
      { ...valid, cardNumber: '1'.repeat(20) },
      { ...valid, expiry: '13/30' },
      { ...valid, expiry: '1/30' },
      { ...valid, expiry: '00/30' },
      { ...valid, cvc: '12' },
      { ...valid, cvc: '12345' },
      { ...valid, cvc: '1234' },
    ];
    for (const values of cases) {
      const contract = sandboxCardBodySchema.safeParse(values);
      const page = validateSandboxCard(values);
      if (contract.success) {
        expect(page, JSON.stringify(values)).toEqual({ body: contract.data });
      } else {
        const messages = Object.fromEntries(
          contract.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
        );
        // The contract's max-length message is zod's own; the page says what to enter instead.
        const expected =
          values.cardholderName.length > 100
            ? { cardholderName: payMessages.cardholderName }
            : messages;
        expect(page, JSON.stringify(values)).toEqual({ errors: expected });
      }
    }
  });

  it('accepts and refuses the email addresses startPaymentBodySchema does', () => {
    const addresses = [
      'ada@example.com',
      'ada.lovelace+receipts@mail.example.co.uk',
      "o'brien@example.ie",
      'ada@example',
      'ada@@example.com',
      '.ada@example.com',
      'ada..l@example.com',
      'ada@-example.com',
      'ada @example.com',
      `${'a'.repeat(195)}@example.com`,
    ];
    for (const emailAddress of addresses) {
      const contract = startPaymentBodySchema.safeParse({
        configurationId,
        payer: { firstNames: 'Ada', surname: 'Lovelace', emailAddress },
      });
      const page = validatePayment(
        {
          configurationId,
          amount: '',
          payer: { firstNames: 'Ada', surname: 'Lovelace', emailAddress },
        },
        null,
      );
      if (contract.success) expect(page, emailAddress).toEqual({ body: contract.data });
      else {
        expect(
          contract.error.issues[0]?.message === payMessages.email || emailAddress.length > 200,
        ).toBe(true);
        expect(page, emailAddress).toEqual({ errors: { 'payer.emailAddress': payMessages.email } });
      }
    }
  });

  it('uses the contract’s messages for the method and the amount', () => {
    const noMethod = startPaymentBodySchema.safeParse({});
    expect(noMethod.error?.issues[0]?.message).toBe(payMessages.configurationId);
    const zero = startPaymentBodySchema.safeParse({ configurationId, amount: 0 });
    expect(zero.error?.issues[0]?.message).toBe(payMessages.amountPositive);
    const text = startPaymentBodySchema.safeParse({ configurationId, amount: 'ten' });
    expect(text.error?.issues[0]?.message).toBe(payMessages.amountNumber);
  });
});

describe('editable invoice amounts', () => {
  const rule = {
    transactionId: '0190d7a2-0000-7000-8000-0000000000e2',
    reference: 'INV-002',
    minimumAmount: 10,
    maximumAmount: 576.22,
    required: false,
    amountToPay: 576.22,
    askedAmount: 576.22,
    outstandingAmount: 500,
    currency: 'GBP',
  };
  const values = (amount: string, leftOut = false) => ({
    configurationId,
    payer: { firstNames: 'Ada', surname: 'Lovelace', emailAddress: 'ada@example.com' },
    amount: '',
    invoices: { [rule.transactionId]: { amount, leftOut } },
  });

  it('sends bodies the contract accepts: a part, the whole, and a left-out invoice as 0', () => {
    for (const [typed, leftOut, sent] of [
      ['120.50', false, 120.5],
      ['576.22', false, 576.22],
      ['999', true, 0],
    ] as const) {
      const checked = validatePayment(values(typed, leftOut), null, [rule], 100);
      expect('body' in checked && checked.body.invoices).toEqual([
        { transactionId: rule.transactionId, amount: sent },
      ]);
      if ('body' in checked)
        expect(startPaymentBodySchema.safeParse(checked.body).success).toBe(true);
    }
  });

  it('says what is wrong on the field the server would name', () => {
    const errorOf = (typed: string, fixedTotal = 100, leftOut = false) => {
      const checked = validatePayment(values(typed, leftOut), null, [rule], fixedTotal);
      return 'errors' in checked ? checked.errors : {};
    };
    expect(errorOf('5')['invoices.0.amount']).toBe('Enter at least £10.00');
    expect(errorOf('600')['invoices.0.amount']).toBe('Enter no more than £576.22');
    expect(errorOf('550')['invoices.0.amount']).toBe(
      'Pay £576.22 (in full) or at most £500.00: late fees are paid only with the whole invoice',
    );
    expect(errorOf('', 0, true).invoices).toBe('Choose at least one invoice to pay.');
    expect(errorOf('', 100, true)).toEqual({});
  });
});
