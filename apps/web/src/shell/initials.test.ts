import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of the first and last names, at most 2', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('ada king lovelace')).toBe('AL');
    expect(initials('  Grace   Hopper ')).toBe('GH');
  });

  it('gives one letter for one name and nothing for no name', () => {
    expect(initials('Cher')).toBe('C');
    expect(initials('')).toBe('');
  });

  it('skips punctuation and keeps accented letters', () => {
    expect(initials('(Émile) Zola')).toBe('ÉZ');
  });
});
