import { describe, expect, it } from 'vitest';
import { compareDecimals, toUnits } from './decimal.js';

describe('decimal', () => {
  it.each([
    ['12.5', 125000n],
    ['-0.0100', -100n],
    ['1e-3', 10n],
    ['0.1', 1000n],
    ['1234567890123.4567', 12345678901234567n],
    ['3', 30000n],
    ['1.23456', 12345n],
    ['2E+2', 2000000n],
  ])('reads %s exactly', (text, units) => {
    expect(toUnits(text)).toBe(units);
  });

  it('compares without floating point error', () => {
    expect(compareDecimals(String(0.1 + 0.2), '0.3000')).toBe(0);
    expect(compareDecimals('100.01', '100.0100')).toBe(0);
    expect(compareDecimals('100.02', '100.0100')).toBe(1);
    expect(compareDecimals('-1', '0')).toBe(-1);
  });

  it('refuses text that is not a number', () => {
    expect(() => toUnits('abc')).toThrow();
    expect(() => toUnits('.')).toThrow();
  });
});
