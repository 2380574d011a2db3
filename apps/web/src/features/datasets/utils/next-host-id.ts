import type { Dataset } from '@ledgerline/contract';

const wholeNumber = /^\d+$/;

/** A host id's number, or null when it is not a whole number ('SAGE-01'). */
function numberOf(id: string): bigint | null {
  const text = id.trim();
  return wholeNumber.test(text) ? BigInt(text) : null;
}

/**
 * spec 1 §2.7: the default host id and custom host id of a new company. Start from the highest
 * numeric id among all host ids and custom host ids, and count up until no company has the number
 * as its host id nor as its custom host id. Ids that are not whole numbers are ignored; '007' is
 * 7. BigInt keeps ids longer than 15 digits exact.
 */
export function nextFreeHostId(
  datasets: readonly Pick<Dataset, 'hostId' | 'customHostId'>[],
): string {
  const taken = new Set<bigint>();
  for (const dataset of datasets) {
    for (const id of [dataset.hostId, dataset.customHostId]) {
      const number = numberOf(id);
      if (number !== null) taken.add(number);
    }
  }
  let candidate = 1n;
  for (const number of taken) if (number > candidate) candidate = number;
  while (taken.has(candidate)) candidate += 1n;
  return candidate.toString();
}
