import type { Database } from '../../db/client.js';
import { bankRates } from '../../db/schema-money-rules.js';
import { isCalendarDate } from './calendar-date.js';

/**
 * The operator command `npm run admin -- set-bank-rate --from YYYY-MM-DD --rate N`: records a
 * Bank Rate change (or corrects one) on the owner connection. The history is data, never code.
 */
export async function setBankRate(database: Database, from: string, rateText: string) {
  if (!isCalendarDate(from)) throw new Error('--from must be a date, YYYY-MM-DD.');
  if (!/^\d{1,2}(\.\d{1,4})?$/.test(rateText))
    throw new Error('--rate must be a percentage from 0 to 99.9999, e.g. 3.75.');
  await database.db
    .insert(bankRates)
    .values({ effectiveFrom: from, rate: rateText })
    .onConflictDoUpdate({
      target: bankRates.effectiveFrom,
      set: { rate: rateText, createdOn: new Date() },
    });
  return { from, rate: rateText };
}
