import { limits } from '@ledgerline/contract';

const firstLetter = (word: string) => word.match(/[\p{L}\p{N}]/u)?.[0] ?? '';

/**
 * spec 1 §2.2, §9: the user's initials, at most 2 characters: the first letters of the first and
 * last names ("Ada King Lovelace" → "AL"); one name gives one letter.
 */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .map(firstLetter)
    .filter((letter) => letter !== '');
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.join('').toLocaleUpperCase().slice(0, limits.initials);
}
