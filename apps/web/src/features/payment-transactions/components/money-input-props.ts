import { currencyDecimalPlaces } from '@ledgerline/contract';
import { currencyPrefix } from '@/ui/money-format';

/**
 * A money amount in a dialog's NumberInput written as the page writes money (the
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
