import { describe, expect, it } from 'vitest';
import { createBankBody, formatIban, ibanChecksumValid } from './banks.js';

describe('ibanChecksumValid', () => {
  it.each([
    'GB82WEST12345698765432',
    'DE89370400440532013000',
    'FR1420041010050500013M02606',
    'NO9386011117947',
  ])('accepts the published example %s', (iban) => expect(ibanChecksumValid(iban)).toBe(true));

  it.each(['GB82WEST12345698765423', 'GB28WEST12345698765432', 'DE89370400440532013001'])(
    'refuses %s (a swap or a wrong digit)',
    (iban) => expect(ibanChecksumValid(iban)).toBe(false),
  );
});

describe('createBankBody', () => {
  it('normalises codes and turns empty optional text into null', () => {
    expect(
      createBankBody.parse({
        accountName: ' Main ',
        currency: 'USD',
        accountNumber: ' 1234-5678 ',
        sortCode: '123456',
        iban: ' de89 3704 0044 0532 0130 00 ',
        bankName: '   ',
      }),
    ).toEqual({
      accountName: 'Main',
      currency: 'USD',
      description: null,
      accountNumber: '12345678',
      sortCode: '12-34-56',
      iban: 'DE89370400440532013000',
      bankName: null,
      source: null,
    });
  });

  it('gives one message per broken field', () => {
    const result = createBankBody.safeParse({ accountName: 'A', currency: 'GBP', iban: 'XX00' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['iban']);
  });
});

describe('formatIban', () => {
  it('groups by four for reading', () => {
    expect(formatIban('GB82WEST12345698765432')).toBe('GB82 WEST 1234 5698 7654 32');
  });
});
