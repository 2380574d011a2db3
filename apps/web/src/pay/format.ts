/** Money in the request's currency and dates in en-GB long form, with Intl only. */

const moneyFormats = new Map<string, Intl.NumberFormat>();
const plainAmount = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2 });

export function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
    } catch {
      // Not an ISO 4217 code Intl knows: the number with the code after it.
      return `${plainAmount.format(amount)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const longDateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });

/** `2026-11-24` → `24 November 2026` (a calendar day: no time zone moves it). */
export function formatDate(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : longDate.format(date);
}

/** An instant in the payer's own time zone: `24 November 2026 at 14:05`. */
export function formatDateTime(isoDateTime: string): string {
  const date = new Date(isoDateTime);
  return Number.isNaN(date.getTime()) ? isoDateTime : longDateTime.format(date);
}

/** The number of minor units of a currency (2 for GBP, 0 for JPY), for the part amount's input. */
export function currencyDecimals(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-GB', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}
