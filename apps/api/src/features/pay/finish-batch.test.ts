import { describe, expect, it } from 'vitest';
import { roundsOf } from './finish-batch.js';

describe('roundsOf', () => {
  it("puts each payment's first notice in the first round, its second in the second", () => {
    const items = [
      { paymentTransactionId: 'a', n: 1 },
      { paymentTransactionId: 'b', n: 2 },
      { paymentTransactionId: 'a', n: 3 },
      { paymentTransactionId: 'a', n: 4 },
      { paymentTransactionId: 'c', n: 5 },
    ];
    expect(roundsOf(items).map((round) => round.map((item) => item.n))).toEqual([
      [1, 2, 5],
      [3],
      [4],
    ]);
  });

  it('has no round for no notices', () => {
    expect(roundsOf([])).toEqual([]);
  });
});
