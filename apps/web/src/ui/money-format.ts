import { currencyDecimalPlaces } from '@ledgerline/contract';

/** spec 1 §9: an empty amount shows '-'. */
export const emptyAmount = '-';

export type AmountInput = number | string | null | undefined;

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let numberFormat = moneyFormats.get(currency);
  if (!numberFormat) {
    const digits = currencyDecimalPlaces(currency);
    numberFormat = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(currency, numberFormat);
  }
  return numberFormat;
}

/**
 * The one way the site writes money: £22,611.80, never GBP 22,611.80; the
 * currency's own minor units (0 to 4, ISO 4217, spec 1 §9); '-' when empty. Grids, detail pages,
 * the dashboard, dialogs and the payer page all call this; a currency en-GB has no symbol for
 * keeps its code (SGD 10.00, as Intl writes it). Without a currency the amount shows with two
 * decimals.
 */
export function formatMoney(amount: AmountInput, currency: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return emptyAmount;
  const value = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(value)) return emptyAmount;
  if (!currency) {
    return value.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  try {
    return moneyFormat(currency.toUpperCase()).format(value);
  } catch {
    // Not a well-formed currency code: the amount, then the code.
    const digits = currencyDecimalPlaces(currency);
    return `${currency} ${value.toFixed(digits)}`;
  }
}

/**
 * What an amount field puts before the number so that it reads as formatMoney writes it: the
 * currency's symbol (£, US$, €), or its code and a space.
 */
export function currencyPrefix(currency: string): string {
  const written = formatMoney(0, currency);
  const prefix = written.slice(0, written.indexOf('0'));
  return prefix === '' ? `${currency} ` : prefix;
}
