import { currencyDecimalPlaces } from '@ledgerline/contract';

/** The symbol a currency is written with in en-GB (£, $, €), or its code followed by a space. */
function currencyPrefix(currency: string): string {
  try {
    const symbol = new Intl.NumberFormat('en-GB', { style: 'currency', currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value;
    return symbol && symbol !== currency ? symbol : `${currency} `;
  } catch {
    return `${currency} `;
  }
}

/**
 * A money amount in a dialog's NumberInput written as the page writes money (issue 22 item 8: the
 * capture dialog showed 28947): the currency's symbol, thousands separated, and the currency's own
 * minor units.
 */
export function moneyInputProps(currency: string) {
  return {
    prefix: currencyPrefix(currency),
    thousandSeparator: ',',
    decimalScale: currencyDecimalPlaces(currency),
    fixedDecimalScale: true,
  } as const;
}
