import { describe, expect, it } from 'vitest';
import { firstPage, hasPreviousPage, nextPage, previousPage } from './cursor-stack';

describe('cursor stack', () => {
  it('goes forward pushing the current cursor and back popping it', () => {
    const second = nextPage(firstPage, 'c2');
    const third = nextPage(second, 'c3');
    expect(third).toEqual({ cursor: 'c3', previous: [undefined, 'c2'] });
    expect(previousPage(third)).toEqual(second);
    expect(previousPage(previousPage(third))).toEqual(firstPage);
  });

  it('has no page before the first', () => {
    expect(hasPreviousPage(firstPage)).toBe(false);
    expect(previousPage(firstPage)).toBe(firstPage);
    expect(hasPreviousPage(nextPage(firstPage, 'c2'))).toBe(true);
  });
});
