import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size';

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 KB'],
    [1536, '1.5 KB'],
    [10_000_000, '10 MB'],
    [2_500_000_000, '2.5 GB'],
    [3_000_000_000_000, '3 TB'],
    [5_000_000_000_000_000, '5,000 TB'],
  ])('shows %d bytes as %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});
