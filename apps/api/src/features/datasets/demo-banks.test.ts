import { describe, expect, it } from 'vitest';
import { demoBank } from './demo-banks.js';

/** ISO 13616: an IBAN is valid when, rearranged with letters as numbers, it leaves 1 mod 97. */
const ibanValid = (iban: string) => {
  const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) =>
    String(letter.charCodeAt(0) - 55),
  );
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
};

describe('demoBank', () => {
  it('gives accounts whose IBAN, bank code and sort code agree', () => {
    for (let i = 1; i <= 8; i++) {
      const bank = demoBank(i);
      expect(ibanValid(bank.iban)).toBe(true);
      const sortCode = bank.sortCode.replaceAll('-', '');
      expect(bank.iban).toBe(
        `GB${bank.iban.slice(2, 4)}${bank.iban.slice(4, 8)}${sortCode}${bank.accountNumber}`,
      );
      expect(bank.sortCode).toMatch(/^\d{2}-\d{2}-\d{2}$/);
      expect(bank.accountNumber).toMatch(/^\d{8}$/);
    }
    expect(demoBank(1)).toMatchObject({ bankName: 'Barclays', currency: 'GBP' });
    expect(demoBank(3)).toMatchObject({ bankName: 'Lloyds Bank', currency: 'EUR' });
  });
});
