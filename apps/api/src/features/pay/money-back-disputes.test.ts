import { describe, expect, it } from 'vitest';
import { disputeStays } from './money-back-disputes.js';

const dispute = (stage: 'Opened' | 'UnderReview' | 'Won' | 'Lost') => ({
  stage,
  disputeReference: 'dp_1',
});

describe('disputeStays', () => {
  it('moves a dispute not known yet', () => {
    expect(disputeStays(undefined, dispute('Lost'))).toBeNull();
  });

  it('keeps a dispute told the same stage again', () => {
    expect(disputeStays({ stage: 'Opened' }, dispute('Opened'))).toBe('Dispute dp_1 stays Opened');
  });

  it('never moves a dispute back to an earlier stage delivered late', () => {
    expect(disputeStays({ stage: 'Won' }, dispute('Opened'))).toBe(
      'Dispute dp_1 stays Won: Opened is an earlier event delivered late',
    );
    expect(disputeStays({ stage: 'UnderReview' }, dispute('Opened'))).not.toBeNull();
  });

  it('moves forward, and between Won and Lost', () => {
    expect(disputeStays({ stage: 'Opened' }, dispute('UnderReview'))).toBeNull();
    expect(disputeStays({ stage: 'Won' }, dispute('Lost'))).toBeNull();
    expect(disputeStays({ stage: 'Lost' }, dispute('Won'))).toBeNull();
  });
});
