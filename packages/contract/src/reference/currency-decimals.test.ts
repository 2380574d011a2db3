import { describe, expect, it } from 'vitest';
import { currencies } from './currencies.js';
import { currencyDecimalPlaces } from './currency-decimals.js';

describe('currencyDecimalPlaces', () => {
  it('agrees with the currency list for every currency, in any case', () => {
    for (const currency of currencies) {
      expect(currencyDecimalPlaces(currency.code), currency.code).toBe(currency.decimalPlaces);
      expect(currencyDecimalPlaces(currency.code.toLowerCase()), currency.code).toBe(
        currency.decimalPlaces,
      );
    }
  });

  it('answers 2 for a code not in the list', () => {
    expect(currencyDecimalPlaces('XYZ')).toBe(2);
  });
});
