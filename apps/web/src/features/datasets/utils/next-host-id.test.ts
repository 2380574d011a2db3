import { describe, expect, it } from 'vitest';
import { nextFreeHostId } from './next-host-id';

const ids = (...pairs: [string, string][]) =>
  pairs.map(([hostId, customHostId]) => ({ hostId, customHostId }));

describe('nextFreeHostId', () => {
  it.each([
    ['no companies', ids(), '1'],
    ['only the default company', ids(['1', '1']), '2'],
    ['the highest host id', ids(['1', '1'], ['5', '2'], ['3', '3']), '6'],
    ['the highest custom host id', ids(['1', '1'], ['2', '9']), '10'],
    [
      'ids that are not whole numbers are ignored',
      ids(['1', '1'], ['SAGE-7', '7a'], ['-4', '2.5']),
      '2',
    ],
    ['leading zeros and spaces count as the number', ids(['007', ' 8 ']), '9'],
    [
      'a free low number is not reused: it counts up from the highest',
      ids(['1', '1'], ['4', '4']),
      '5',
    ],
    ['long ids stay exact', ids(['12345678901234567890', '1']), '12345678901234567891'],
    ['only text ids', ids(['ABC', 'DEF']), '1'],
  ])('%s', (_case, datasets, expected) => {
    expect(nextFreeHostId(datasets)).toBe(expected);
  });
});
