import Big from 'big.js';
import { currencies } from '@ledgerline/contract';

const decimalsOf = (currency: string) =>
  currencies.find((c) => c.code === currency)?.decimalPlaces ?? 2;

/** An amount in the currency's minor units (pence), as Stripe and GoCardless take it. */
export function minorUnits(amount: string, currency: string): string {
  return new Big(amount)
    .times(new Big(10).pow(decimalsOf(currency)))
    .round(0, Big.roundHalfUp)
    .toFixed(0);
}

/** An amount with the currency's decimals ("92.00"), as OPPWA and TranSafe take it. */
export function majorUnits(amount: string, currency: string): string {
  return new Big(amount).toFixed(decimalsOf(currency));
}

/** An amount in minor units (Stripe's, GoCardless's, TrueLayer's integers) as major units ("92.50"). */
export function fromMinorUnits(minor: number | string, currency: string): string {
  const decimals = decimalsOf(currency.toUpperCase());
  return new Big(minor).div(new Big(10).pow(decimals)).toFixed(decimals);
}
