import { describe, expect, it } from 'vitest';
import { currencyPrefix, formatMoney } from './money-format';

/** Intl separates a currency code from the amount with a no-break space. */
const money = (...args: Parameters<typeof formatMoney>) =>
  formatMoney(...args).replace(/\u00a0/g, ' ');

describe('money formatting', () => {
  it("shows '-' for an empty amount", () => {
    expect(formatMoney(null, 'GBP')).toBe('-');
    expect(formatMoney(undefined, 'GBP')).toBe('-');
    expect(formatMoney('', 'GBP')).toBe('-');
    expect(formatMoney('abc', 'GBP')).toBe('-');
  });

  it('uses the currency’s own minor units', () => {
    expect(formatMoney(1234.5, 'GBP')).toBe('£1,234.50');
    expect(formatMoney(1234.5, 'JPY')).toBe('JP¥1,235');
    expect(money(1.2345, 'KWD')).toBe('KWD 1.235');
    expect(money(1.23456, 'CLF')).toBe('CLF 1.2346');
    expect(formatMoney('99.9', 'EUR')).toBe('€99.90');
  });

  // One money format, the symbol and never the code where there is a symbol.
  it('writes pounds as £22,611.80, never GBP 22,611.80, whatever the code’s case', () => {
    expect(formatMoney(22611.8, 'GBP')).toBe('£22,611.80');
    expect(formatMoney(22611.8, 'gbp')).toBe('£22,611.80');
    expect(formatMoney(-5, 'GBP')).toBe('-£5.00');
    expect(formatMoney(10, 'USD')).toBe('US$10.00');
  });

  it('keeps the code for a currency en-GB has no symbol for, and for a code Intl refuses', () => {
    expect(money(10, 'SGD')).toBe('SGD 10.00');
    expect(formatMoney(10, 'G1P')).toBe('G1P 10.00');
    expect(formatMoney(1234.5, null)).toBe('1,234.50');
  });

  it('gives amount fields the same prefix as the written amount', () => {
    expect(currencyPrefix('GBP')).toBe('£');
    expect(currencyPrefix('EUR')).toBe('€');
    expect(currencyPrefix('USD')).toBe('US$');
    expect(currencyPrefix('SGD').replace(/\u00a0/g, ' ')).toBe('SGD ');
  });
});

// The payer page may not import the admin site (docs/decisions/062-the-payer-page-s-bundle.md "The payer page's bundle"):
// its own formatter must write every amount exactly as this one does.
describe('the payer page’s money', () => {
  it('is written as the admin site writes it', async () => {
    const { formatMoney: payerMoney } = await import('../pay/format');
    for (const currency of ['GBP', 'USD', 'EUR', 'CAD', 'SGD', 'THB', 'ZAR', 'JPY']) {
      for (const amount of [0, 0.5, 10, 1234.5, 22611.8, 1_000_000]) {
        expect(payerMoney(amount, currency), `${amount} ${currency}`).toBe(
          formatMoney(amount, currency),
        );
      }
    }
  });
});
